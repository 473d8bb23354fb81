import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileLines, LINE_TOO_LONG, textLines } from '../../trial/log-lines.js';
import { readOptionalText } from '../../trial/folder.js';
import { tempDir } from '../helpers/data.js';

const dirs = tempDir('aar-log-lines-');
afterAll(() => dirs.cleanup());

let n = 0;
function fileOf(content: string | Uint8Array): string {
  const file = path.join(dirs.dir, `log-${++n}.jsonl`);
  writeFileSync(file, content);
  return file;
}

/** What scoring read before: the whole file's text, split and stripped. */
const wholeRead = (file: string): string[] => [...textLines(readOptionalText(file) ?? '')];

describe('a log file read line by line gives the lines of its whole text', () => {
  test.each([
    ['\\n', 'a\nb\n\n  c  \n'],
    ['\\r\\n and a lone \\r', 'a\r\nb\rc\r\n\r\n'],
    ["Python's other breaks", 'a\vb\fc\x1cd\x1de\x1ef\x85g\u2028h\u2029i'],
    ['no final break', '{"tool":"x"}\n   \n{"tool":"y"}'],
    ['a BOM (kept, as read_text keeps it)', '\uFEFF{"tool":"x"}\n{"tool":"y"}\n'],
    ['multi-byte characters', 'é€😀\n😀😀\n'],
  ])('%s', (_name, text) => {
    const file = fileOf(text);
    expect([...fileLines(file, 1 << 20)!]).toEqual(wholeRead(file));
  });

  test('breaks and characters split across the 1 MiB read chunks', () => {
    const line = '{"tool":"x","result_preview":"é😀"}';
    let text = '';
    while (text.length < 3 * 1024 * 1024) text += line + (text.length % 3 ? '\r\n' : '\n');
    const file = fileOf(text);
    expect([...fileLines(file, 1 << 20)!]).toEqual(wholeRead(file));
  });

  test('bytes that are not UTF-8: replaced, and a leading BOM dropped, as the whole read does', () => {
    const file = fileOf(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n'), Buffer.from([0xff, 0xfe]), Buffer.from('x\n')]));
    expect([...fileLines(file, 1 << 20)!]).toEqual(wholeRead(file));
  });

  test('a line longer than the limit is given as LINE_TOO_LONG, the lines around it as they are', () => {
    const file = fileOf(`a\n${'x'.repeat(3_000_000)}\nb\n${'y'.repeat(50)}`);
    expect([...fileLines(file, 40)!]).toEqual(['a', LINE_TOO_LONG, 'b', LINE_TOO_LONG]);
  });

  test('a missing file is null', () => {
    expect(fileLines(path.join(dirs.dir, 'none.jsonl'), 10)).toBeNull();
  });
});
