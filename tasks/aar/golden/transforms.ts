/**
 * The 13 reason transforms, exactly as the legs' `reason_code` snippets compute them in Python,
 * but natively (BigInt / exact integer arithmetic; no loops up to n).
 *
 * Every transform first does what its snippet does to the source value: `abs(int(x))` for the
 * numeric ones (so 12.9 -> 12, '2020' -> 2020, -6 -> 6), `str(x)` for the two text ones.
 */
import { REASON_TRANSFORMS, type ReasonTransform } from '../reason-transforms.js';
import type { JsonValue } from '../schema.js';
import {
  PyException,
  Unsupported,
  absBig,
  codePoints,
  fromJson,
  makeDate,
  pyInt,
  pyIsAlpha,
  pyStr,
  type Json,
  type PyValue,
} from '../../../pycompat/interpreter/index.js';
import { digitalRoot, largestPrimeFactor, leapYearsBetween, nextPrime, numDivisors, primeFactors, romanLength } from '../../../pycompat/interpreter/number-theory.js';

// ---------------------------------------------------------------------------------------------
// The transforms on Python values

const absInt = (v: PyValue): bigint => absBig(pyInt(v));
const text = (v: PyValue): string => pyStr(v);

export const TRANSFORMS: Record<ReasonTransform, (value: PyValue) => bigint> = {
  next_prime: (v) => nextPrime(absInt(v)),
  sum_prime_factors: (v) => [...new Set(primeFactors(absInt(v)))].reduce((a, b) => a + b, 0n),
  digit_sum: (v) => [...absInt(v).toString()].reduce((a, d) => a + BigInt(d), 0n),
  binary_1bit_count: (v) => BigInt([...absInt(v).toString(2)].filter((c) => c === '1').length),
  num_divisors: (v) => numDivisors(absInt(v)),
  digital_root: (v) => digitalRoot(absInt(v)),
  digit_reversal: (v) => BigInt([...absInt(v).toString()].reverse().join('')),
  roman_numeral_letter_count: (v) => romanLength(absInt(v)),
  largest_prime_factor: (v) => largestPrimeFactor(absInt(v)),
  vowel_count: (v) => BigInt(codePoints(text(v).toLowerCase()).filter((c) => 'aeiou'.includes(c)).length),
  alpha_position_first_letter: (v) => alphaPosition(text(v)),
  day_of_week: (v) => BigInt(((makeDate(absInt(v), 1n, 1n).ordinal + 6) % 7) + 1),
  leap_years_to_2000: (v) => {
    const y = absInt(v);
    return y < 2000n ? leapYearsBetween(y, 2000n) : leapYearsBetween(2000n, y);
  },
};

/** `first = s[0].upper(); ord(first) - ord('A') + 1 if first.isalpha() else 0` (Unicode-aware, like Python). */
function alphaPosition(s: string): bigint {
  const first = codePoints(s)[0];
  if (first === undefined) throw new PyException('IndexError', 'string index out of range');
  const upper = first.toUpperCase();
  if (!pyIsAlpha(upper)) return 0n;
  const n = codePoints(upper).length;
  if (n !== 1) throw new PyException('TypeError', `ord() expected a character, but string of length ${n} found`);
  return BigInt(upper.codePointAt(0)!) - 65n + 1n;
}

export function isReasonTransform(name: string): name is ReasonTransform {
  return (REASON_TRANSFORMS as readonly string[]).includes(name);
}

export type TransformOutcome =
  | { ok: true; value: bigint }
  | { ok: false; kind: 'unsupported' | 'error'; message: string };

/** Applies a named transform to a stop's extracted_value; never throws. */
export function applyTransform(name: string, value: JsonValue): TransformOutcome {
  if (!isReasonTransform(name)) return { ok: false, kind: 'unsupported', message: `unknown reason transform '${name}'` };
  try {
    return { ok: true, value: TRANSFORMS[name](fromJson(value as Json)) };
  } catch (error) {
    if (error instanceof PyException) return { ok: false, kind: 'error', message: error.message };
    if (error instanceof Unsupported) return { ok: false, kind: 'unsupported', message: error.message };
    return { ok: false, kind: 'unsupported', message: `internal error: ${(error as Error).message}` };
  }
}
