import { REASON_TRANSFORMS } from '../../../../tasks/aar/schema.js';
import { TRANSFORMS, applyTransform } from '../../../../tasks/aar/golden/transforms.js';
import {
  divisors,
  largestPrimeFactor,
  leapYearsBetween,
  nextPrime,
  numDivisors,
  primeFactors,
  romanLength,
  toRoman,
} from '../../../../pycompat/interpreter/number-theory.js';

/** [input as the leg stores it, what the leg's Python snippet prints]; checked against CPython 3.11. */
const CASES: Record<string, Array<[unknown, number | string]>> = {
  next_prime: [[0, 2], [1, 2], [2, 3], [13, 17], [14, 17], [-7, 11], [12.9, 13], ['2020', 2027], [55225, 55229], [1000000, 1000003]],
  sum_prime_factors: [[0, 0], [1, 0], [2, 2], [12, 5], [15, 8], [8, 2], [1000, 7], [-12, 5], [12.7, 5], ['44', 13], [97, 97], [1417492000, 354380]],
  digit_sum: [[0, 0], [110, 2], [-123, 6], [45.9, 9], ['246', 12]],
  binary_1bit_count: [[0, 0], [55, 5], [255, 8], [-5, 2], [38.99, 3], ['7', 3]],
  num_divisors: [[0, 0], [1, 1], [12, 6], [36, 9], [1899981, 24], [97, 2], ['1982', 4], [83491249, 8], [2 ** 40, 41]],
  digital_root: [[0, 0], [9, 9], [18, 9], [456, 6], [-6, 6], [-4108.91259765625, 4], ['49', 4]],
  digit_reversal: [[0, 0], [120, 21], [2130638, 8360312], [-45, 54], [12.9, 21], ['1939', 9391]],
  roman_numeral_letter_count: [[0, 0], [1, 1], [4, 2], [8, 4], [12, 3], [1994, 7], [3888, 15], [4000, 4], ['1937', 9], [5456, 10]],
  // The snippet returns what is left after the loop: 1 when the largest prime is divided out inside it.
  largest_prime_factor: [[0, 0], [1, 1], [2, 2], [8, 1], [12, 3], [18, 1], [65, 13], [97, 97], [100, 1], ['1891', 61], [-30.5, 5]],
  vowel_count: [['Major General', 5], ['AEIOU aeiou', 10], ['São Jorge da Mina', 6], ['', 0], ['İstanbul', 3], ['123', 0], [123, 0]],
  alpha_position_first_letter: [['Central Business District', 3], ['india', 9], ['避諱', 36927], ['123', 0], ['ǆemal', 388], ['éclair', 137], [' x', 0], [42, 0]],
  day_of_week: [[1966, 6], [2000, 6], [1, 1], ['1896', 3], [-2024, 1], [1752.9, 6]],
  leap_years_to_2000: [[2020, 6], [2000, 1], [1900, 25], [0, 486], ['2020', 6], [-1996, 2], [2001, 1], [1999, 1]],
};

describe('reason transforms', () => {
  it('covers the 13 transforms of the schema', () => {
    expect(Object.keys(TRANSFORMS).sort()).toEqual([...REASON_TRANSFORMS].sort());
    expect(Object.keys(CASES).sort()).toEqual([...REASON_TRANSFORMS].sort());
  });

  for (const [name, cases] of Object.entries(CASES)) {
    it.each(cases)(`${name}(%p) = %p`, (input, want) => {
      const out = applyTransform(name, input as never);
      expect(out).toEqual({ ok: true, value: BigInt(want) });
    });
  }

  it.each([
    ['alpha_position_first_letter', '', 'error', 'IndexError: string index out of range'],
    ['alpha_position_first_letter', 'ßtraße', 'error', 'TypeError: ord() expected a character, but string of length 2 found'],
    ['day_of_week', 0, 'error', 'ValueError: year 0 is out of range'],
    ['day_of_week', 10000, 'error', 'ValueError: year 10000 is out of range'],
    ['digit_sum', '4.5', 'error', "ValueError: invalid literal for int() with base 10: '4.5'"],
    ['digit_sum', '1,000', 'error', "ValueError: invalid literal for int() with base 10: '1,000'"],
    ['digit_sum', null, 'error', "TypeError: int() argument must be a string, a bytes-like object or a real number, not 'NoneType'"],
    ['next_prime', 2 ** 60, 'unsupported', 'next_prime above 2^53 is not supported (the snippet bounds its loop with a float square root)'],
    ['no_such_transform', 3, 'unsupported', "unknown reason transform 'no_such_transform'"],
  ])('%s(%p) fails as Python would: %s', (name, input, kind, message) => {
    expect(applyTransform(name, input as never)).toEqual({ ok: false, kind, message });
  });

  it('accepts Python int() spellings of numeric strings', () => {
    expect(applyTransform('digit_sum', ' 1_024 ')).toEqual({ ok: true, value: 7n });
    expect(applyTransform('digit_sum', '+12')).toEqual({ ok: true, value: 3n });
    expect(applyTransform('digit_sum', true)).toEqual({ ok: true, value: 1n });
  });

  it('handles values beyond 2^53 exactly where Python would finish quickly', () => {
    expect(applyTransform('digit_sum', '123456789012345678901234567890')).toEqual({ ok: true, value: 135n });
    expect(applyTransform('sum_prime_factors', String(2n ** 80n * 3n))).toEqual({ ok: true, value: 5n });
    expect(applyTransform('num_divisors', String(2n ** 80n * 3n))).toEqual({ ok: true, value: 162n });
    expect(applyTransform('digit_reversal', '1000000000000000000000')).toEqual({ ok: true, value: 1n });
  });
});

describe('number theory helpers', () => {
  it('factorises like the snippet (ascending, with multiplicity)', () => {
    expect(primeFactors(360n)).toEqual([2n, 2n, 2n, 3n, 3n, 5n]);
    expect(primeFactors(0n)).toEqual([]);
    expect(primeFactors(1n)).toEqual([]);
    expect(primeFactors(9007199254740881n)).toEqual([9007199254740881n]); // a prime just below 2^53
  });

  it('counts and lists divisors from the factorisation', () => {
    expect(divisors(36n)).toEqual([1n, 2n, 3n, 4n, 6n, 9n, 12n, 18n, 36n]);
    expect(numDivisors(720720n)).toBe(240n);
  });

  it('reproduces the largest_prime_factor loop quirk', () => {
    expect(largestPrimeFactor(8n)).toBe(1n);
    expect(largestPrimeFactor(12n)).toBe(3n);
    expect(largestPrimeFactor(2n ** 70n * 7n)).toBe(7n);
  });

  it('finds the next prime', () => {
    expect(nextPrime(1417492000n)).toBe(1417492007n);
  });

  it('builds roman numerals greedily and measures them without building', () => {
    expect(toRoman(1994n)).toBe('MCMXCIV');
    expect(toRoman(4000n)).toBe('MMMM');
    for (let n = 0n; n < 5000n; n += 7n) expect(romanLength(n)).toBe(BigInt(toRoman(n).length));
    expect(romanLength(1417492000n)).toBe(1417492n);
  });

  it('counts leap years in a closed range', () => {
    expect(leapYearsBetween(2000n, 2020n)).toBe(6n);
    expect(leapYearsBetween(1900n, 1900n)).toBe(0n);
    expect(leapYearsBetween(-400n, 0n)).toBe(98n);
    expect(leapYearsBetween(5n, 4n)).toBe(0n);
  });
});
