import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { collectResult } from '../../container/trial-result.js';
import { ANSWER_LIMIT_BYTES } from '../../trial/copy-limits.js';
import { tempDir } from '../helpers/data.js';

const noOutput = { stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), stdoutSize: 0, stderrSize: 0 };

describe('what a self-contained trial hands back (in the container, swarm)', () => {
  const tmp = tempDir('aar-trial-result-');
  afterAll(() => tmp.cleanup());

  const collect = (content: string) => {
    const file = path.join(tmp.dir, 'answer.txt');
    writeFileSync(file, content);
    const r = collectResult({ collect_files: [file], collect_dirs: [], limits: { file_bytes: ANSWER_LIMIT_BYTES, log_bytes: 1024 } }, noOutput);
    return { answer: Buffer.from(r.files[file]!, 'base64').toString(), cuts: r.cuts.map(({ path: _, ...cut }) => cut) };
  };

  test('an answer padded past the limit comes back as the reference reads it: 5,000 spaces then 6 is 6', () => {
    expect(collect(' '.repeat(5000) + '6')).toEqual({ answer: '6', cuts: [{ size: 5001, kept: 1, blank: 5000 }] });
    expect(collect('4\n')).toEqual({ answer: '4\n', cuts: [] });
  });

  test('an answer longer than the limit is cut, and the cut says so', () => {
    const long = collect('\n' + '8'.repeat(ANSWER_LIMIT_BYTES + 10));
    expect(long.answer).toBe('8'.repeat(ANSWER_LIMIT_BYTES));
    expect(long.cuts).toEqual([{ size: ANSWER_LIMIT_BYTES + 11, kept: ANSWER_LIMIT_BYTES, blank: 1 }]);
  });
});
