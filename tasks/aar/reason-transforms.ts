// Without zod: the oracle, bundled to run inside trial containers, needs the names and not the schemas.
/** The 13 reason transforms that occur in the released data. */
export const REASON_TRANSFORMS = [
  'next_prime',
  'sum_prime_factors',
  'digit_sum',
  'binary_1bit_count',
  'num_divisors',
  'digital_root',
  'digit_reversal',
  'roman_numeral_letter_count',
  'largest_prime_factor',
  'vowel_count',
  'alpha_position_first_letter',
  'day_of_week',
  'leap_years_to_2000',
] as const;

export type ReasonTransform = (typeof REASON_TRANSFORMS)[number];
