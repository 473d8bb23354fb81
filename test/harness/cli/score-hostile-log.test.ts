import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';
import { runAar } from '../../helpers/cli.js';

const LEG = path.join(EXAMPLES_DIR, 'examples-linear/easy/sample_003.json');
const dirs = tempDir('aar-score-hostile-');
afterAll(() => dirs.cleanup());

describe('aar score with a tool log an agent tried to make unreadable', () => {
  test('a line nested 200,000 levels deep is skipped and counted; the leg is not blamed', () => {
    const log = path.join(dirs.dir, 'deep.jsonl');
    const levels = 200_000;
    const good = JSON.stringify({ tool: 'stock_historical_price', args: { ticker: 'AAPL', date: '2024-01-12' }, success: true, result_preview: '185.92', result_len: 6, ts: 1 });
    writeFileSync(log, `{"tool":"web_search","args":{"q":${'['.repeat(levels)}${']'.repeat(levels)}},"success":true}\n${good}\n`);
    writeFileSync(path.join(dirs.dir, 'answer.txt'), '8\n');
    const r = runAar(['score', '--leg', LEG, '--answer', path.join(dirs.dir, 'answer.txt'), '--tool-log', log]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'correct', total_tool_calls: 1, right_tool_calls: 1, log_lines_skipped: 1 });
  });

  test('a tool log that cannot be read is named, not the leg', () => {
    const folder = path.join(dirs.dir, 'a-folder.jsonl');
    mkdirSync(folder);
    const r = runAar(['score', '--leg', LEG, '--tool-log', folder]);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(folder);
    expect(r.stderr).not.toContain(LEG);
  });
});
