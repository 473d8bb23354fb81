import {
  pyFloat,
  pyFloatRepr,
  pyFormatFixed,
  pyIntOfFloat,
  pyRepr,
  pyRound,
  pyStr,
} from '../../pycompat/index.js';
import { canon, fromBits, loadFixture, sameFloat, toBits } from './fixtures.js';

describe('pyFloatRepr == repr(float)', () => {
  test.each<[number, string]>([
    [0, '0.0'],
    [-0, '-0.0'],
    [20, '20.0'],
    [0.1, '0.1'],
    [0.1 + 0.2, '0.30000000000000004'],
    [1 / 3, '0.3333333333333333'],
    [0.0001, '0.0001'],
    [0.00001, '1e-05'],
    [0.000123, '0.000123'],
    [0.0000123, '1.23e-05'],
    [1e15, '1000000000000000.0'],
    [9999999999999998, '9999999999999998.0'],
    [1e16, '1e+16'],
    [1.5e16, '1.5e+16'],
    [123456789012345680, '1.2345678901234568e+17'],
    [1.5e300, '1.5e+300'],
    [1e-300, '1e-300'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [Infinity, 'inf'],
    [-Infinity, '-inf'],
    [NaN, 'nan'],
    [-2.5, '-2.5'],
  ])('%p -> %s', (x, expected) => {
    expect(pyFloatRepr(x)).toBe(expected);
    expect(pyStr(x)).toBe(expected);
  });
});

describe('pyIntOfFloat == str(int(x))', () => {
  test.each<[number, string | null]>([
    [2.9, '2'],
    [-2.9, '-2'],
    [-0.5, '0'],
    [-0, '0'],
    [1e22, '10000000000000000000000'],
    [1e23, '99999999999999991611392'],
    [2 ** 64, '18446744073709551616'],
    [1.7976931348623157e308, BigInt(1.7976931348623157e308).toString()],
    [NaN, null],
    [Infinity, null],
    [-Infinity, null],
  ])('%p -> %s', (x, expected) => {
    expect(pyIntOfFloat(x)).toBe(expected);
  });
});

describe('pyFormatFixed == format(x, ".Nf")', () => {
  test.each<[number, number, string]>([
    [0.125, 2, '0.12'], // exact tie, half to even
    [0.375, 2, '0.38'],
    [2.675, 2, '2.67'], // binary value below the tie
    [1.005, 2, '1.00'],
    [0.5, 0, '0'],
    [1.5, 0, '2'],
    [2.5, 0, '2'],
    [-2.5, 0, '-2'],
    [1e22, 1, '10000000000000000000000.0'], // toFixed gives '1e+22'
    [1e21, 2, '1000000000000000000000.00'],
    [2 ** 100, 1, '1267650600228229401496703205376.0'],
    [1e23, 0, '99999999999999991611392'],
    [-0, 1, '-0.0'],
    [-0.001, 2, '-0.00'], // the sign stays
    [0.001, 2, '0.00'],
    [5e-324, 3, '0.000'],
    [NaN, 2, 'nan'],
    [Infinity, 1, 'inf'],
    [-Infinity, 1, '-inf'],
    [3, 1, '3.0'],
    [66.66666666666667, 2, '66.67'],
    [0.1, 20, '0.10000000000000000555'],
  ])('format(%p, ".%if") -> %s', (x, d, expected) => {
    expect(pyFormatFixed(x, d)).toBe(expected);
  });
});

describe('pyRound == round(x, n)', () => {
  test.each<[number, number, string]>([
    [0.0625, 3, '0.062'], // exact tie -> even
    [2 / 3, 3, '0.667'],
    [0.0005, 3, '0.001'], // binary value is above the tie
    [0.0015, 3, '0.002'],
    [0.0025, 3, '0.003'],
    [2.675, 2, '2.67'],
    [0.5, 0, '0.0'],
    [1.5, 0, '2.0'],
    [2.5, 0, '2.0'],
    [-0.5, 0, '-0.0'],
    [-0.0001, 3, '-0.0'],
    [0.1 + 0.2, 3, '0.3'],
    [1 / 3, 15, '0.333333333333333'],
    [1e300, 3, '1e+300'],
    [5e-324, 15, '0.0'],
    [NaN, 3, 'nan'],
    [-Infinity, 3, '-inf'],
    [1234.5, -2, '1200.0'],
    [1250, -2, '1200.0'],
  ])('round(%p, %i) -> %s', (x, d, expected) => {
    expect(pyFloatRepr(pyRound(x, d))).toBe(expected);
  });
});

describe('pyFloat == float(str)', () => {
  test.each<[string, number | null]>([
    ['1', 1],
    [' 1.5 ', 1.5],
    ['\t\n-2e3\r\x0b\x0c', -2000],
    ['\u00a03\u3000', 3], // non-ASCII whitespace is stripped
    ['\x853', 3],
    ['\x1c3', null], // ASCII separators are not (CPython quirk: str.isspace() is true for them)
    ['1_000', 1000],
    ['1_000.000_1', 1000.0001],
    ['1e1_0', 1e10],
    ['_1', null],
    ['1_', null],
    ['1__0', null],
    ['1_.5', null],
    ['1._5', null],
    ['1e_1', null],
    ['\u0663', 3], // Arabic-indic digit three
    ['\u0663.\u0665', 3.5],
    ['\uff11\uff12', 12],
    ['\ud835\udfcf', 1], // mathematical bold one
    ['\u00b2', null], // superscript: not a decimal digit
    ['.5', 0.5],
    ['5.', 5],
    ['+.5', 0.5],
    ['-5.e3', -5000],
    ['.', null],
    ['e5', null],
    ['1e', null],
    ['1e+', null],
    ['0x10', null],
    ['1,000', null],
    ['', null],
    ['   ', null],
    ['1 2', null],
    ['inf', Infinity],
    ['-Infinity', -Infinity],
    ['iNfInItY', Infinity],
    ['+nan', NaN],
    ['-NaN', NaN],
    ['infi', null],
    ['nan(1)', null],
    ['1e500', Infinity],
    ['-1e500', -Infinity],
    ['1e-500', 0],
    ['00012', 12],
    ['1\x00', null],
  ])('float(%j) -> %p', (s, expected) => {
    const got = pyFloat(s);
    if (expected === null) expect(got).toBeNull();
    else expect(sameFloat(got as number, expected)).toBe(true);
  });
});

interface FloatCase {
  x: string;
  repr: string;
  int: string | null;
  fixed?: string[];
  fixedK?: [number, string];
  round: string[];
  roundK: [number, string];
}

describe('fixture: random floats (repr, int, format .Nf, round)', () => {
  const cases = loadFixture<FloatCase[]>('floats.json');
  test('fixture is loaded', () => {
    expect(cases.length).toBeGreaterThan(2000);
  });
  test('all match CPython', () => {
    const bad: unknown[] = [];
    for (const c of cases) {
      const x = fromBits(c.x);
      const got: FloatCase = {
        x: c.x,
        repr: pyRepr(x),
        int: pyIntOfFloat(x),
        round: [0, 1, 2, 3].map((d) => pyFloatRepr(pyRound(x, d))),
        roundK: [c.roundK[0], pyFloatRepr(pyRound(x, c.roundK[0]))],
      };
      if (c.fixed) got.fixed = [0, 1, 2, 3].map((d) => pyFormatFixed(x, d));
      if (c.fixedK) got.fixedK = [c.fixedK[0], pyFormatFixed(x, c.fixedK[0])];
      if (canon(got) !== canon(c)) bad.push({ expected: c, got });
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });
});

describe('fixture: float() of random number-ish strings', () => {
  const cases = loadFixture<[string, string | null][]>('floatstr.json');
  test('all match CPython', () => {
    expect(cases.length).toBeGreaterThan(1000);
    const bad: unknown[] = [];
    for (const [s, expected] of cases) {
      const got = pyFloat(s);
      const ok = expected === null ? got === null : got !== null && sameFloat(got, fromBits(expected));
      if (!ok) bad.push({ s, expected, got: got === null ? null : toBits(got) });
    }
    expect(bad.slice(0, 5)).toEqual([]);
  });
});
