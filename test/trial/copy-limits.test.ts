import { ANSWER_BLANK_LIMIT_BYTES, ANSWER_LIMIT_BYTES, AnswerCopy, cutLostBytes, PrefixCopy, type CopiedFile } from '../../trial/copy-limits.js';

/** An answer file's bytes through AnswerCopy, in chunks of `chunk` bytes (1: every character split), as a copy out of a sandbox feeds it. */
function copyAnswer(text: string | Buffer, chunk = 64 * 1024): CopiedFile & { lost: boolean } {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const copy = new AnswerCopy();
  for (let at = 0; at < bytes.length && copy.push(bytes.subarray(at, at + chunk)); at += chunk);
  const result = copy.result(bytes.length);
  return { ...result, lost: result.cut ? cutLostBytes(result.cut) : false };
}

describe('copying an answer out of a sandbox: the whitespace around it is no cut (the reference strips it)', () => {
  test('5,000 spaces then 6 keeps 6: the padding is left out as blank, nothing is lost', () => {
    for (const chunk of [1, 7, 64 * 1024]) {
      const r = copyAnswer(' '.repeat(5000) + '6', chunk);
      expect([chunk, r.content.toString(), r.cut, r.lost]).toEqual([chunk, '6', { size: 5001, kept: 1, blank: 5000 }, false]);
    }
  });

  test('trailing whitespace past the limit is read past, and is no loss either', () => {
    const r = copyAnswer('6' + '\n'.repeat(100_000));
    expect(r.content.toString()).toBe('6' + '\n'.repeat(ANSWER_LIMIT_BYTES - 1));
    expect(r.cut).toEqual({ size: 100_001, kept: ANSWER_LIMIT_BYTES, blank: 100_001 - ANSWER_LIMIT_BYTES });
    expect(r.lost).toBe(false);
  });

  test('anything but whitespace past the limit is a cut that lost bytes', () => {
    const r = copyAnswer('6' + ' '.repeat(ANSWER_LIMIT_BYTES - 1) + 'x');
    expect(r.content.toString().trim()).toBe('6');
    expect(r.lost).toBe(true);
    expect(copyAnswer('7'.repeat(10_000)).cut).toEqual({ size: 10_000, kept: ANSWER_LIMIT_BYTES });
  });

  test("Python's whitespace, not only ASCII: U+3000 and U+00A0, split between chunks, and one straddling the limit", () => {
    const ideographic = '\u3000'.repeat(2000) + '\u00a0\t\x1c6\u2029';
    for (const chunk of [1, 2, 5]) {
      const r = copyAnswer(ideographic, chunk);
      expect([chunk, r.content.toString(), r.lost]).toEqual([chunk, '6\u2029', false]);
    }
    // "6", 4,094 spaces, then a 3-byte U+3000 across byte 4,096: the kept part ends before it, which is blank.
    const straddling = copyAnswer('6' + ' '.repeat(ANSWER_LIMIT_BYTES - 2) + '\u3000');
    expect(straddling.content.length).toBe(ANSWER_LIMIT_BYTES - 1);
    expect(straddling.cut).toEqual({ size: ANSWER_LIMIT_BYTES + 2, kept: ANSWER_LIMIT_BYTES - 1, blank: 3 });
    expect(straddling.lost).toBe(false);
  });

  test('no UTF-8 character is split; U+200B (not whitespace in Python) is part of the answer', () => {
    const e = copyAnswer('é'.repeat(3000));
    expect(e.content.toString()).toBe('é'.repeat(2048));
    expect(e.lost).toBe(true);
    expect(copyAnswer('\u200b6').content.toString()).toBe('\u200b6');
    // A file ending inside a character keeps its bytes (the answer is what it is).
    expect(copyAnswer(Buffer.from([0x20, 0x36, 0xe3, 0x80])).content).toEqual(Buffer.from([0x36, 0xe3, 0x80]));
  });

  test('a small answer comes whole, with no cut; an empty one is empty', () => {
    expect(copyAnswer('6\n')).toEqual({ content: Buffer.from('6\n'), lost: false });
    expect(copyAnswer('')).toEqual({ content: Buffer.alloc(0), lost: false });
  });

  test('padding is bounded too: a file of nothing but whitespace is read no further than the blank limit and the answer limit', () => {
    const copy = new AnswerCopy();
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let read = 0;
    while (read < 1024 ** 3 && copy.push(chunk)) read += chunk.length;
    expect(read).toBeLessThanOrEqual(ANSWER_BLANK_LIMIT_BYTES + ANSWER_LIMIT_BYTES);
    const r = copy.result(1024 ** 3);
    expect(r.content.length).toBe(ANSWER_LIMIT_BYTES);
    expect(cutLostBytes(r.cut!)).toBe(true);
  });

  test('PrefixCopy keeps the first bytes, cut where no character is split', () => {
    const copy = new PrefixCopy(4);
    expect(copy.push(Buffer.from('abcé'))).toBe(true);
    expect(copy.push(Buffer.from('xyz'))).toBe(false);
    expect(copy.result(8)).toEqual({ content: Buffer.from('abc'), cut: { size: 8, kept: 3 } });
  });
});
