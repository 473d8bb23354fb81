import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { logFileLines, toolCallsTable } from '../../../verifier/html/trial-tables.js';
import { tempDir } from '../../helpers/data.js';

const dirs = tempDir('aar-trial-tables-');
afterAll(() => dirs.cleanup());

describe("a trial page's tool calls, read line by line", () => {
  test('lists the first lines of a long log and says how many it has in all', () => {
    const file = path.join(dirs.dir, 'tool_log.jsonl');
    const line = (i: number) => JSON.stringify({ tool: 'web_search', args: { query: `q${i}` }, success: true, result_preview: '', result_len: 0, ts: 1 });
    writeFileSync(file, Array.from({ length: 1500 }, (_, i) => line(i)).join('\n') + '\n\n');
    const { lines, total } = logFileLines(file);
    expect(total).toBe(1500);
    expect(lines).toHaveLength(1000);
    expect(lines[999]).toBe(line(999));
    const table = toolCallsTable(lines, [], undefined, total);
    expect(table.title).toBe('Tool calls (1500)');
    expect(table.note).toMatch(/the first 1000 of 1500 are listed/);
  });

  test('a missing log lists nothing', () => {
    expect(logFileLines(path.join(dirs.dir, 'none.jsonl'))).toEqual({ lines: [], total: 0 });
  });
});
