import { KNOWN_DEFS } from '../../../../pycompat/interpreter/known-defs.js';
import type { ReasonTransform } from '../../reason-transforms.js';

/**
 * A detour's `reason_code`: the Python program that computes its transform from the source value, in
 * the forms the golden executor's interpreter runs (its helper functions written exactly as KNOWN_DEFS
 * holds them), and which transforms fit a value (small enough for the program, a year for the calendar ones).
 */

const def = (name: keyof typeof KNOWN_DEFS): string => KNOWN_DEFS[name].source;
const lit = (v: number | string): string => (typeof v === 'number' ? String(v) : JSON.stringify(v));

export function reasonCode(transform: ReasonTransform, value: number | string): string {
  const v = lit(value);
  switch (transform) {
    case 'next_prime':
      return `${def('next_prime')}result = next_prime(${v})\nprint(result)`;
    case 'sum_prime_factors':
      return `${def('prime_factors')}result = sum(set(prime_factors(${v})))\nprint(result)`;
    case 'largest_prime_factor':
      return `${def('largest_prime_factor')}result = largest_prime_factor(${v})\nprint(result)`;
    case 'roman_numeral_letter_count':
      return `${def('to_roman')}result = len(to_roman(${v}))\nprint(result)`;
    case 'digit_sum':
      return `result = sum(int(d) for d in str(abs(int(${v}))))\nprint(result)`;
    case 'binary_1bit_count':
      return `result = bin(abs(int(${v}))).count('1')\nprint(result)`;
    case 'digit_reversal':
      return `result = int(str(abs(int(${v})))[::-1])\nprint(result)`;
    case 'num_divisors':
      return `n = abs(int(${v}))\ncount = sum(1 for i in range(1, n+1) if n % i == 0) if n > 0 else 0\nresult = count\nprint(result)`;
    case 'digital_root':
      return `n = abs(int(${v}))\nresult = n if n == 0 else ((n - 1) % 9) + 1\nprint(result)`;
    case 'day_of_week':
      return `from datetime import date\nresult = date(abs(int(${v})), 1, 1).isoweekday()\nprint(result)`;
    case 'leap_years_to_2000':
      return `import calendar\ny = abs(int(${v}))\nlo, hi = min(y, 2000), max(y, 2000)\nresult = sum(1 for yr in range(lo, hi+1) if calendar.isleap(yr))\nprint(result)`;
    case 'vowel_count':
      return `result = sum(1 for c in ${v}.lower() if c in 'aeiou')\nprint(result)`;
    case 'alpha_position_first_letter':
      return `first = ${v}[0].upper()\nresult = ord(first) - ord('A') + 1 if first.isalpha() else 0\nprint(result)`;
  }
}

/** The transforms that fit a numeric value (its absolute whole part `n`). */
export function transformsFor(value: number, isYear: boolean): ReasonTransform[] {
  const n = Math.abs(Math.trunc(value));
  const out: ReasonTransform[] = ['digit_sum', 'binary_1bit_count', 'digital_root'];
  if (n >= 2 && n < 1e9) out.push('next_prime', 'sum_prime_factors', 'largest_prime_factor');
  if (n >= 10) out.push('digit_reversal');
  if (n >= 1 && n <= 100_000) out.push('num_divisors');
  if (n >= 1 && n <= 3999) out.push('roman_numeral_letter_count');
  if (isYear && n >= 1 && n <= 9999) out.push('day_of_week', 'leap_years_to_2000');
  return out;
}

/** What a transform does, in words (the stop's extraction_target after "Reason: "). */
export const TRANSFORM_WORDS: Record<ReasonTransform, string> = {
  next_prime: 'the next prime number after that figure',
  sum_prime_factors: 'the sum of its distinct prime factors',
  digit_sum: 'the sum of its digits',
  binary_1bit_count: 'the number of 1-bits in its binary representation',
  num_divisors: 'the number of divisors of that figure',
  digital_root: 'the digital root (iterated digit sum until a single digit)',
  digit_reversal: 'the number you get by reversing its digits',
  roman_numeral_letter_count: 'the number of characters when written as a Roman numeral',
  largest_prime_factor: 'the largest prime factor of that figure',
  vowel_count: 'the number of vowels in that name',
  alpha_position_first_letter: 'the alphabetical position of its first letter (A=1, B=2, ...)',
  day_of_week: 'the day of the week of January 1st of that year (1=Mon, 7=Sun)',
  leap_years_to_2000: 'the count of leap years between that year and 2000',
};
