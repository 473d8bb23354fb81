import {
  pyLower,
  pyMatchesSingleDigit,
  pyReadText,
  pyRepr,
  pySplitlines,
  pyStrip,
  PyUnicodeDecodeError,
} from '../../pycompat/index.js';
import { canon, loadFixture } from './fixtures.js';

describe('pyStrip == str.strip()', () => {
  test.each<[string, string]>([
    ['  7 \n', '7'],
    ['\t\n\x0b\x0c\r a \r\n', 'a'],
    ['\x1c\x1d\x1e\x1f5\x1f', '5'], // Python strips the ASCII separators, JS trim() does not
    ['\x855\xa0', '5'], // NEL and NBSP
    ['\u20005\u3000\u2028\u2029\u202f\u205f\u1680', '5'],
    ['\ufeff5\ufeff', '\ufeff5\ufeff'], // BOM is not whitespace for Python (JS trim() strips it)
    ['\u200b5\u180e', '\u200b5\u180e'], // zero-width space, Mongolian vowel separator: not whitespace
    ['', ''],
    [' \n ', ''],
    ['a b', 'a b'],
  ])('%j -> %j', (s, expected) => {
    expect(pyStrip(s)).toBe(expected);
  });
});

describe('pyLower == str.lower()', () => {
  test.each<[string, string]>([
    ['ABC Déjà', 'abc déjà'],
    ['\u0130', 'i\u0307'], // İ -> i + combining dot (full mapping, not locale-dependent)
    ['ΟΔΟΣ', 'οδος'], // final sigma
    ['ΟΔΟΣ ΟΔΟΣ.', 'οδος οδος.'],
    ['Σ', 'σ'], // alone: not final
    ['ΑΣΑ', 'ασα'],
    ["ΑΣ'", "ας'"], // apostrophe is case-ignorable
    ["Α'Σ", "α'ς"],
    ['ΑΣ\u0345', 'ας\u0345'], // U+0345 is case-ignorable (and cased) in CPython
    ['1Σ', '1σ'],
    ['\u1e9e', 'ß'],
    ['\u2126', 'ω'], // OHM SIGN
    ['\u212a', 'k'], // KELVIN SIGN
    ['\ud801\udc00', '\ud801\udc28'], // astral: DESERET CAPITAL LONG I
    ['\ud800A', '\ud800a'], // lone surrogate kept
    ['\u1c89', '\u1c89'], // Unicode 16 letter: lowered by Node's ICU, not by Python 3.11 (Unicode 14)
    ['\ua7cb', '\ua7cb'],
  ])('%j -> %j', (s, expected) => {
    expect(pyLower(s)).toBe(expected);
  });
});

describe('pySplitlines == str.splitlines()', () => {
  test.each<[string, string[]]>([
    ['', []],
    ['\n', ['']],
    ['a\n', ['a']],
    ['a\n\nb', ['a', '', 'b']],
    ['a\r\nb\rc\n', ['a', 'b', 'c']],
    ['a\n\rb', ['a', '', 'b']],
    ['a\x0bb\x0cc\x1cd\x1de\x1ef\x1fg', ['a', 'b', 'c', 'd', 'e', 'f\x1fg']], // \x1f is not a line break
    ['a\x85b\u2028c\u2029d', ['a', 'b', 'c', 'd']],
    ['{"a": 1}\r\n{"b": 2}\r\n', ['{"a": 1}', '{"b": 2}']],
  ])('%j -> %j', (s, expected) => {
    expect(pySplitlines(s)).toEqual(expected);
  });
});

describe('pyMatchesSingleDigit == re.match(r"^\\d$", s) is not None', () => {
  test.each<[string, boolean]>([
    ['7', true],
    ['7\n', true], // $ matches before a final newline
    ['7\n\n', false],
    ['\n7', false],
    ['7\r', false],
    ['77', false],
    ['', false],
    [' 7', false],
    ['\u0667', true], // ARABIC-INDIC DIGIT SEVEN
    ['\uff15', true], // FULLWIDTH DIGIT FIVE
    ['\ud835\udfcf', true], // MATHEMATICAL BOLD DIGIT ONE (astral)
    ['\u00b2', false], // superscript two: No, not Nd
    ['\u2460', false], // circled one
    ['\u2155', false],
    ['a', false],
  ])('%j -> %s', (s, expected) => {
    expect(pyMatchesSingleDigit(s)).toBe(expected);
  });
});

describe('pyReadText == Path.read_text() (UTF-8)', () => {
  const bytes = (...b: number[]) => new Uint8Array(b);
  test.each<[string, Uint8Array, string | null]>([
    ['plain', new TextEncoder().encode('héllo\n'), 'héllo\n'],
    ['CRLF and lone CR', new TextEncoder().encode('a\r\nb\rc\n\r'), 'a\nb\nc\n\n'],
    ['BOM kept', bytes(0xef, 0xbb, 0xbf, 0x31), '\ufeff1'],
    ['invalid start byte', bytes(0x31, 0xff), null],
    ['encoded surrogate', bytes(0xed, 0xa0, 0x80), null],
    ['overlong', bytes(0xc0, 0xaf), null],
    ['truncated', bytes(0xe2, 0x82), null],
    ['above U+10FFFF', bytes(0xf4, 0x90, 0x80, 0x80), null],
    ['NEL and U+2028 are not newlines here', new TextEncoder().encode('a\u0085b\u2028c'), 'a\u0085b\u2028c'],
  ])('%s', (_name, data, expected) => {
    if (expected === null) expect(() => pyReadText(data)).toThrow(PyUnicodeDecodeError);
    else expect(pyReadText(data)).toBe(expected);
  });

  test('fixture: random byte strings', () => {
    const cases = loadFixture<[string, string | null][]>('readtext.json');
    expect(cases.length).toBeGreaterThan(100);
    for (const [hex, expected] of cases) {
      const data = Uint8Array.from(Buffer.from(hex, 'hex'));
      let got: string | null;
      try {
        got = pyReadText(data);
      } catch {
        got = null;
      }
      expect([hex, got]).toEqual([hex, expected]);
    }
  });
});

describe('fixture: random unicode strings (strip, lower, repr, splitlines, single digit)', () => {
  const cases = loadFixture<{ s: string; repr: string; strip: string; lower: string; splitlines: string[]; digit: boolean }[]>(
    'strings.json',
  );
  test('fixture is loaded', () => {
    expect(cases.length).toBeGreaterThan(1000);
  });
  test('all match CPython', () => {
    const bad: unknown[] = [];
    for (const c of cases) {
      const got = {
        s: c.s,
        repr: pyRepr(c.s),
        strip: pyStrip(c.s),
        lower: pyLower(c.s),
        splitlines: pySplitlines(c.s),
        digit: pyMatchesSingleDigit(c.s),
      };
      if (canon(got) !== canon(c)) bad.push({ expected: c, got });
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });
});
