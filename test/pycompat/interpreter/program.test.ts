import { KNOWN_DEFS, runProgram } from '../../../pycompat/interpreter/program.js';

function out(code: string): string {
  const r = runProgram(code);
  return r.ok ? r.stdout : `${r.kind}: ${r.message}`;
}

const NEXT_PRIME = KNOWN_DEFS.next_prime.source;
const PRIME_FACTORS = KNOWN_DEFS.prime_factors.source;
const LARGEST = KNOWN_DEFS.largest_prime_factor.source;
const TO_ROMAN = KNOWN_DEFS.to_roman.source;
const DIGITAL_ROOT = KNOWN_DEFS.digital_root.source;

/** One program of every shape in the released legs, with what CPython 3.11 prints for it. */
const SHAPES: Array<[string, string, string]> = [
  ['tool: int + int', 'result = int(1672.906616210938) + int(20.0)\nprint(result)', '1692\n'],
  ['tool: abs of a difference', 'result = abs(int(342.8165893554688) - int(4.0))\nprint(result)', '338\n'],
  ['tool: negative operand', 'result = abs(int(-12.5) - int(30.0))\nprint(result)', '42\n'],
  ['tool: date difference', "from datetime import date\nd1 = date.fromisoformat('1875-01-01')\nd2 = date.fromisoformat('2026-03-15')\nresult = abs((d2 - d1).days)\nprint(result)", '55225\n'],
  ['tool: km to miles', '# Convert km to miles\nvalue = 21.0\nconverted = value * 0.621371\nresult = int(converted)\nprint(result)', '13\n'],
  ['tool: celsius offset', '# Convert celsius to fahrenheit_offset\nvalue = 1055545.0\nconverted = value * 1.8\nresult = int(converted)\nprint(result)', '1899981\n'],
  ['tool: meters to yards', '# Convert meters to yards\nvalue = 574.0\nconverted = value * 1.09361\nresult = int(converted)\nprint(result)', '627\n'],
  ['tool: meters to feet', '# Convert meters to feet\nvalue = 1896.0\nconverted = value * 3.28084\nresult = int(converted)\nprint(result)', '6220\n'],
  ['compute: abs % 10', 'result = abs(2007 - 3) % 10\nprint(result)', '4\n'],
  ['compute: sum % 10', 'result = (196 + 365 + 4 + 5) % 10\nprint(result)', '0\n'],
  ['compute: digital_root', `${DIGITAL_ROOT}result = digital_root(1 + 165 + 63100945)\nprint(result)`, '5\n'],
  ['reason: next_prime', `${NEXT_PRIME}result = next_prime(55225)\nprint(result)`, '55229\n'],
  ['reason: sum_prime_factors', `${PRIME_FACTORS}result = sum(set(prime_factors(15)))\nprint(result)`, '8\n'],
  ['reason: largest_prime_factor', `${LARGEST}result = largest_prime_factor(65)\nprint(result)`, '13\n'],
  ['reason: roman_numeral_letter_count', `${TO_ROMAN}result = len(to_roman(12))\nprint(result)`, '3\n'],
  ['reason: digit_sum', 'result = sum(int(d) for d in str(abs(int(110))))\nprint(result)', '2\n'],
  ['reason: binary_1bit_count', "result = bin(abs(int(55))).count('1')\nprint(result)", '5\n'],
  ['reason: digit_reversal', 'result = int(str(abs(int(2130638)))[::-1])\nprint(result)', '8360312\n'],
  ['reason: num_divisors', 'n = abs(int(1899981))\ncount = sum(1 for i in range(1, n+1) if n % i == 0) if n > 0 else 0\nresult = count\nprint(result)', '24\n'],
  ['reason: num_divisors of 0', 'n = abs(int(0))\ncount = sum(1 for i in range(1, n+1) if n % i == 0) if n > 0 else 0\nresult = count\nprint(result)', '0\n'],
  ['reason: digital_root', 'n = abs(int(-4108))\nresult = n if n == 0 else ((n - 1) % 9) + 1\nprint(result)', '4\n'],
  ['reason: vowel_count', 'result = sum(1 for c in "Major General".lower() if c in \'aeiou\')\nprint(result)', '5\n'],
  ['reason: vowel_count with escapes', 'result = sum(1 for c in "South Sulawesi\\\'s \\"Peninsula\\"".lower() if c in \'aeiou\')\nprint(result)', '10\n'],
  ['reason: alpha_position_first_letter', 'first = "Central Business District"[0].upper()\nresult = ord(first) - ord(\'A\') + 1 if first.isalpha() else 0\nprint(result)', '3\n'],
  ['reason: alpha_position of a digit', 'first = "123 Main"[0].upper()\nresult = ord(first) - ord(\'A\') + 1 if first.isalpha() else 0\nprint(result)', '0\n'],
  ['reason: day_of_week', 'from datetime import date\nresult = date(abs(int(1966)), 1, 1).isoweekday()\nprint(result)', '6\n'],
  ['reason: leap_years_to_2000', 'import calendar\ny = abs(int(2020))\nlo, hi = min(y, 2000), max(y, 2000)\nresult = sum(1 for yr in range(lo, hi+1) if calendar.isleap(yr))\nprint(result)', '6\n'],
  ['reason: leap years over a huge range', 'import calendar\ny = abs(int(123456789))\nlo, hi = min(y, 2000), max(y, 2000)\nresult = sum(1 for yr in range(lo, hi+1) if calendar.isleap(yr))\nprint(result)', '29937787\n'],
];

describe('runProgram: every program shape of the legs', () => {
  it.each(SHAPES)('%s', (_name, code, want) => {
    expect(out(code)).toBe(want);
  });

  it('reports printed values with their Python types', () => {
    const r = runProgram('result = int(1672.906616210938) + int(20.0)\nprint(result)');
    expect(r).toEqual({ ok: true, stdout: '1692\n', printed: [[1692n]] });
  });
});

describe('runProgram: print', () => {
  it.each([
    ['print(1.0)', '1.0\n'],
    ['print(1e-5)', '1e-05\n'],
    ['print(10 / 4)', '2.5\n'],
    ['print(2 ** 64)', '18446744073709551616\n'],
    ['print(7 // 2, 7 / 2, sep=", ")', '3, 3.5\n'],
    ['print("a", 1, end="")', 'a 1'],
    ['print(True, None)', 'True None\n'],
    ['print([1, "a", 2.0])', "[1, 'a', 2.0]\n"],
    ['print((1,))', '(1,)\n'],
    ['print()', '\n'],
    ["from datetime import date\nprint(date.fromisoformat('2020-01-02'))", '2020-01-02\n'],
    ["from datetime import date\nprint(date(2020, 1, 5) - date(2020, 1, 2))", '3 days, 0:00:00\n'],
    ['print(1)\nprint(2)', '1\n2\n'],
  ])('%s', (code, want) => {
    expect(out(code)).toBe(want);
  });
});

describe('runProgram: statements', () => {
  it.each([
    ['x = 5\nx += 2\nx *= 3\nprint(x)', '21\n'],
    ['a = b = 3\nprint(a + b)', '6\n'],
    ['(a, b) = 1, 2\nprint(b, a)', '2 1\n'],
    ['x = 1; y = 2; print(x + y)', '3\n'],
    ['import datetime\nprint(datetime.date(2000, 1, 1).weekday())', '5\n'],
    ['from calendar import isleap\nprint(isleap(1900), isleap(2000))', 'False True\n'],
    ['\n# only a comment\n\npass\nprint(1)  # trailing\n', '1\n'],
    ['x = (1 +\n     2)\nprint(x)', '3\n'],
    // A known def spelled with other spacing is still recognised (it is compared token by token).
    [`${DIGITAL_ROOT.replace('n = abs(int(n))', 'n=abs( int(n) )')}print(digital_root(38))`, '2\n'],
    // Two known defs, and a def after a statement.
    [`x = 12\n${PRIME_FACTORS}${LARGEST}print(prime_factors(x), largest_prime_factor(x))`, '[2, 2, 3] 3\n'],
  ])('%s', (code, want) => {
    expect(out(code)).toBe(want);
  });
});

describe('runProgram: failures are reported, never thrown or guessed', () => {
  it.each([
    ['for i in range(3):\n    print(i)', "unsupported: unsupported: line 1: 'for' statements are not supported"],
    ['if True:\n    print(1)', "unsupported: unsupported: line 1: 'if' statements are not supported"],
    ['while True:\n    pass', "unsupported: unsupported: line 1: 'while' statements are not supported"],
    ['import os\nprint(os.getcwd())', "unsupported: unsupported: line 1: import of module 'os' is not supported (only datetime, calendar)"],
    ['from math import sqrt', "unsupported: unsupported: line 1: import from module 'math' is not supported (only datetime, calendar)"],
    ['from datetime import datetime', 'unsupported: unsupported: line 1: datetime.datetime is not supported'],
    ['def foo(n):\n    return n\nprint(foo(1))', 'unsupported: unsupported: line 1: def foo() is not one of the known helpers (next_prime, prime_factors, largest_prime_factor, to_roman, digital_root)'],
    [`${NEXT_PRIME.replace('candidate += 1', 'candidate += 2')}print(next_prime(10))`, 'unsupported: unsupported: line 1: def next_prime() differs from the known next_prime, and function bodies are not interpreted'],
    [`${DIGITAL_ROOT}    n = 5\nprint(digital_root(10))`, 'unsupported: unsupported: line 1: def digital_root() differs from the known digital_root, and function bodies are not interpreted'],
    ['x = {1: 2}', 'unsupported: unsupported: line 1: dicts are not supported'],
    ['print(f"{1}")', 'unsupported: unsupported: line 1: f-strings are not supported'],
    ['x.y = 1', 'unsupported: unsupported: line 1: assignment to an attribute or item is not supported'],
    ['print(sum(1 for i in range(10 ** 8)))', 'unsupported: unsupported: the program runs more than 1000000 loop steps'],
    ['print(len(str(2 ** 10 ** 7)))', 'unsupported: unsupported: 2 ** 10000000 is too large to compute here'],
    ['print({1, 2})', 'unsupported: unsupported: str() of a non-empty set is not supported (its order depends on hashing)'],
    ['result = 1 / 0\nprint(result)', 'error: ZeroDivisionError: division by zero'],
    ['print(result)', "error: NameError: name 'result' is not defined"],
    ['a, b = 1, 2, 3', 'error: ValueError: too many values to unpack (expected 2)'],
    ["from datetime import date\nprint(date.fromisoformat('2020-13-01'))", 'error: ValueError: month must be in 1..12'],
    ['print(1', 'error: SyntaxError: line 1: unexpected end of input inside brackets'],
    ['  print(1)', 'error: SyntaxError: line 1: unexpected indent'],
    ['x = = 1', "error: SyntaxError: line 1: expected an expression, found '='"],
    ['1 = x', 'error: SyntaxError: line 1: cannot assign to expression'],
    ["print('abc)", 'error: SyntaxError: line 1: unterminated string literal'],
  ])('%s', (code, want) => {
    expect(out(code)).toBe(want);
  });

  it('parses the whole program first, as Python does: a syntax error anywhere means nothing runs', () => {
    expect(runProgram('print(1)\nx = = 2')).toEqual({
      ok: false,
      kind: 'error',
      message: "SyntaxError: line 2: expected an expression, found '='",
      stdout: '',
    });
  });

  it('accepts Windows line ends', () => {
    expect(out(`${DIGITAL_ROOT}result = digital_root(38)\r\nprint(result)\r\n`.replace(/\n/g, '\r\n').replace(/\r\r/g, '\r'))).toBe('2\n');
  });

  it('keeps what was printed before the failure', () => {
    expect(runProgram('print(1)\nprint(1 // 0)')).toEqual({
      ok: false,
      kind: 'error',
      message: 'ZeroDivisionError: integer division or modulo by zero',
      stdout: '1\n',
    });
  });
});
