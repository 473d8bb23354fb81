import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { scoreTrial } from '../../../../tasks/aar/scoring/score.js';
import { call, fetchPage, makeLeg, pageStop, reasonStop, step, toolLog, toolStop } from '../../../helpers/legs.js';

const leg = makeLeg([
  pageStop('https://en.wikipedia.org/wiki/Danube'),
  toolStop(step('stock_historical_price', { symbol: 'AAPL' })),
  toolStop(step('python_execute_code', { code: 'print(1)' })),
]);

describe('calls the gateway refused', () => {
  test('are counted as calls but never match a golden step, a tool or a page', () => {
    const refused = { refused: true, success: false };
    const log = toolLog(
      call('stock_historical_price', { symbol: 'AAPL' }, refused),
      call('python_execute_code', { code: 'print(1)' }, refused),
      fetchPage('https://en.wikipedia.org/wiki/Danube', refused),
    );
    const s = scoreTrial(leg, null, log);
    expect(s).toMatchObject({ total_tool_calls: 3, tool_calls: 3, right_tool_calls: 0, rcr: 0, pvr: 0, pages_visited: 0, tools_used: 0 });
  });

  test('the same calls, run, are credited', () => {
    const log = toolLog(call('stock_historical_price', { symbol: 'AAPL' }), call('python_execute_code', { code: 'print(1)' }), fetchPage('https://en.wikipedia.org/wiki/Danube'));
    expect(scoreTrial(leg, null, log)).toMatchObject({ right_tool_calls: 2, rcr: 1, pvr: 1, pages_visited: 1, tools_used: 1 });
  });
});

describe('only served tool outputs can show a golden value (value matching)', () => {
  // The example leg's five values: 1889, 1832, 33.52, 14 and 6 (passcode 6).
  const valueLeg = makeLeg(
    [pageStop('https://en.wikipedia.org/wiki/Eiffel_Tower', 1889), pageStop('https://en.wikipedia.org/wiki/Gustave_Eiffel', 1832), reasonStop(33.52), reasonStop(14), reasonStop(6)],
    6,
  );
  const golden = 'v 1889 1832 33.52 14 6';

  test('a refused call whose name carries the values earns nothing: no value, no near miss', () => {
    const refusedLine = call(golden, {}, { success: false, refused: true, source: 'gateway', result_preview: `Error: unknown tool '${golden}'. Available: web_search` });
    const s = scoreTrial(valueLeg, '3', toolLog(refusedLine, refusedLine));
    expect(s).toMatchObject({ total_tool_calls: 2, intermediate_correct: 0, intermediate_rate: 0, near_miss: false, right_tool_calls: 0 });
  });

  test('an error the gateway or a provider wrote about a failed call (echoing the arguments) shows no value', () => {
    const log = toolLog(
      call('maps_geocode', { address: golden }, { success: false, source: 'gateway', result_preview: `Error: address ${golden} is not valid` }),
      call('countries_population', { country: golden }, { success: false, source: 'store', provider_error: 'replay miss', result_preview: `Error: no recorded response for ${golden}` }),
      call('fetch_webpage', { url: `https://x/${golden}` }, { success: false, source: 'provider', result_preview: `Error: fetching https://x/${golden} failed` }),
    );
    expect(scoreTrial(valueLeg, '3', log)).toMatchObject({ total_tool_calls: 3, valid_tool_calls: 0, intermediate_correct: 0 });
  });

  test('served outputs show values: a success from any source, a failed container run, a line in the reference format', () => {
    const log = toolLog(
      call('web_search', { query: 'eiffel' }, { source: 'store', result_preview: 'completed in 1889' }),
      call('python_execute_code', { code: 'x' }, { success: false, source: 'container', result_preview: '1832\nTraceback ...' }),
      call('web_search', { query: 'x' }, { success: false, result_preview: '33.52' }),
    );
    expect(scoreTrial(valueLeg, '3', log)).toMatchObject({ intermediate_correct: 3, total_tool_calls: 3 });
  });

  test('a value spread over two previews is found (the previews are joined with a space), also when the log is read from a file', () => {
    const withSpace = makeLeg([reasonStop('Gustave Eiffel')], 6);
    const log = toolLog(call('web_search', {}, { result_preview: 'by Gustave' }), call('web_search', {}, { result_preview: 'Eiffel, engineer' }));
    expect(scoreTrial(withSpace, '3', log).intermediate_correct).toBe(1);
    const dir = mkdtempSync(path.join(tmpdir(), 'aar-values-'));
    try {
      writeFileSync(path.join(dir, 'tool_log.jsonl'), log);
      expect(scoreTrial(withSpace, '3', { file: path.join(dir, 'tool_log.jsonl') }).intermediate_correct).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
