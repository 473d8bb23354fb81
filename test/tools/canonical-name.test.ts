import { toolLogLine } from '../../harness/gateway/tool-log.js';
import { parseToolLog } from '../../tasks/aar/scoring/tool-log.js';
import { ToolService } from '../../tools/service.js';
import { ResponseStore } from '../../tools/store/store.js';
import { callIdentity } from '../../tools/store/canonical.js';
import { tempDir } from '../helpers/data.js';

describe('the tool name is resolved once, and the log keeps the canonical name beside the name as called', () => {
  const tmp = tempDir('canonical-name-');
  afterAll(() => tmp.cleanup());
  const store = () => {
    const s = new ResponseStore(tmp.dir);
    s.put(callIdentity('web_search', { query: 'danube' }), { ok: true, text: '{"organic":[]}' }, 'synthetic');
    return s;
  };

  test('a call by alias is answered as the catalog tool and logged with canonical_tool', async () => {
    const service = new ToolService({ mode: 'replay', store: store() });
    const outcome = await service.call('serper_search', { query: 'danube' });
    expect(outcome).toMatchObject({ tool: 'web_search', calledAs: 'serper_search', ok: true, source: 'store', text: '{"organic":[]}' });
    const line = JSON.parse(toolLogLine('serper_search', { query: 'danube' }, outcome, 1));
    expect(line).toMatchObject({ tool: 'serper_search', canonical_tool: 'web_search' });
    expect(Object.keys(line).slice(0, 7)).toEqual(['tool', 'args', 'success', 'result_preview', 'result_len', 'ts', 'canonical_tool']);
  });

  test('a call by the catalog name, or of an unknown tool, writes the line as before (no canonical_tool)', async () => {
    const service = new ToolService({ mode: 'replay', store: store() });
    const byName = await service.call('web_search', { query: 'danube' });
    expect(byName.calledAs).toBeUndefined();
    expect(JSON.parse(toolLogLine('web_search', { query: 'danube' }, byName, 1))).not.toHaveProperty('canonical_tool');
    const unknown = await service.call('no_such_tool', {});
    expect(unknown).toMatchObject({ tool: 'no_such_tool', refused: true });
    expect(unknown.calledAs).toBeUndefined();
    expect(JSON.parse(toolLogLine('no_such_tool', {}, unknown, 1))).not.toHaveProperty('canonical_tool');
  });

  test('scoring reads a line with canonical_tool exactly as the same line without it (an older log)', async () => {
    const outcome = await new ToolService({ mode: 'replay', store: store() }).call('serper_search', { query: 'danube' });
    const withField = toolLogLine('serper_search', { query: 'danube' }, outcome, 1, 1_700_000_000_000);
    const parsed = JSON.parse(withField) as Record<string, unknown>;
    delete parsed.canonical_tool;
    const older = JSON.stringify(parsed) + '\n';
    expect(withField).not.toBe(older);
    expect(parseToolLog(withField)).toEqual(parseToolLog(older));
    expect(parseToolLog(withField).calls[0]).toMatchObject({ tool: 'serper_search', canonicalName: 'web_search' });
  });
});
