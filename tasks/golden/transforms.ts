/**
 * The 13 reason transforms, exactly as the legs' `reason_code` snippets compute them in Python,
 * but natively (BigInt / exact integer arithmetic; no loops up to n).
 *
 * Every transform first does what its snippet does to the source value: `abs(int(x))` for the
 * numeric ones (so 12.9 -> 12, '2020' -> 2020, -6 -> 6), `str(x)` for the two text ones.
 */
import { REASON_TRANSFORMS, type JsonValue, type ReasonTransform } from '../schema.js';
import {
  MAX_SAFE,
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
} from '../../python/interpreter/index.js';

/** Trial divisions allowed for integers above 2^53 (below it, plain float arithmetic is fast enough). */
const BIG_TRIAL_BUDGET = 5_000_000;

// ---------------------------------------------------------------------------------------------
// Number theory, mirroring the snippets' loops

/**
 * prime_factors(n) of the snippets: trial division d = 2, 3, 4, ... while d*d <= n, factors with
 * multiplicity, in ascending order. n must already be abs(int(x)).
 */
export function primeFactors(n: bigint): bigint[] {
  if (n <= MAX_SAFE) return primeFactorsSmall(Number(n)).map(BigInt);
  const factors: bigint[] = [];
  let budget = BIG_TRIAL_BUDGET;
  while (n % 2n === 0n) {
    factors.push(2n);
    n /= 2n;
  }
  for (let d = 3n; d * d <= n; d += 2n) {
    if (--budget < 0) throw new Unsupported('integer too large to factorise here');
    while (n % d === 0n) {
      factors.push(d);
      n /= d;
    }
  }
  if (n > 1n) factors.push(n);
  return factors;
}

function primeFactorsSmall(n: number): number[] {
  const factors: number[] = [];
  if (n < 4) return n > 1 ? [n] : [];
  while (n % 2 === 0) {
    factors.push(2);
    n /= 2;
  }
  // Even d > 2 never divides once the 2s are out, and the loop's exit test only grows with d,
  // so skipping them finds exactly the factors the snippet finds.
  for (let d = 3; d * d <= n; d += 2) {
    while (n % d === 0) {
      factors.push(d);
      n /= d;
    }
  }
  if (n > 1) factors.push(n);
  return factors;
}

/**
 * largest_prime_factor(n) of the snippets. Note it returns what is left after dividing out every
 * d with d*d <= n, which is 1 when the largest prime is used up inside the loop: 8 -> 1, 18 -> 1.
 */
export function largestPrimeFactor(n: bigint): bigint {
  if (n <= 1n) return n;
  if (n <= MAX_SAFE) {
    let m = Number(n);
    while (m % 2 === 0) m /= 2; // d = 2; the loop runs for any n >= 4, and n in {2, 3} skips it
    if (Number(n) < 4) return n;
    for (let d = 3; d * d <= m; d += 2) while (m % d === 0) m /= d;
    return BigInt(m);
  }
  let budget = BIG_TRIAL_BUDGET;
  while (n % 2n === 0n) n /= 2n;
  for (let d = 3n; d * d <= n; d += 2n) {
    if (--budget < 0) throw new Unsupported('integer too large to factorise here');
    while (n % d === 0n) n /= d;
  }
  return n;
}

function isPrimeSmall(c: number): boolean {
  if (c < 2) return false;
  if (c % 2 === 0) return c === 2;
  for (let d = 3; d * d <= c; d += 2) if (c % d === 0) return false;
  return true;
}

/**
 * next_prime(n) of the snippets: 2 when n < 2, else the first prime above n. The snippet bounds its
 * trial division by int(candidate**0.5), a float: exact below 2^53, not reproduced above it.
 */
export function nextPrime(n: bigint): bigint {
  if (n < 2n) return 2n;
  if (n + 1n > MAX_SAFE) throw new Unsupported('next_prime above 2^53 is not supported (the snippet bounds its loop with a float square root)');
  let c = Number(n) + 1;
  while (!isPrimeSmall(c)) {
    c++;
    if (c > Number.MAX_SAFE_INTEGER) throw new Unsupported('next_prime above 2^53 is not supported');
  }
  return BigInt(c);
}

/** Number of positive divisors (0 for 0), from the factorisation. */
export function numDivisors(n: bigint): bigint {
  if (n <= 0n) return 0n;
  let count = 1n;
  let run = 0n;
  let last = 0n;
  for (const p of primeFactors(n)) {
    if (p === last) run++;
    else {
      count *= run + 1n;
      last = p;
      run = 1n;
    }
  }
  return count * (run + 1n);
}

/** The positive divisors of n > 0 (sorted), from the factorisation. */
export function divisors(n: bigint): bigint[] {
  let ds = [1n];
  const factors = primeFactors(n);
  for (let i = 0; i < factors.length; ) {
    const p = factors[i];
    let e = 0;
    while (i < factors.length && factors[i] === p) {
      e++;
      i++;
    }
    const next: bigint[] = [];
    for (const d of ds) {
      let m = d;
      for (let k = 0; k <= e; k++, m *= p) next.push(m);
    }
    ds = next;
  }
  return ds.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

export function digitalRoot(n: bigint): bigint {
  n = absBig(n);
  return n === 0n ? 0n : ((n - 1n) % 9n) + 1n;
}

const ROMAN: Array<[number, string]> = [
  [1000, 'M'], [900, 'CM'], [500, 'D'], [400, 'CD'], [100, 'C'],
  [90, 'XC'], [50, 'L'], [40, 'XL'], [10, 'X'], [9, 'IX'], [5, 'V'], [4, 'IV'], [1, 'I'],
];

/** to_roman(n) of the snippets: greedy, so 4000 is 'MMMM' and 0 is ''. */
export function toRoman(n: bigint): string {
  n = absBig(n);
  const thousands = n / 1000n;
  if (thousands > 10_000_000n) throw new Unsupported(`to_roman(${n}) would build a string of over ten million letters`);
  let r = 'M'.repeat(Number(thousands));
  let rest = Number(n % 1000n);
  for (const [v, s] of ROMAN) {
    while (rest >= v) {
      r += s;
      rest -= v;
    }
  }
  return r;
}

/** Letters in one decimal digit's numeral (I, II, III, IV, V, VI, VII, VIII, IX). */
const DIGIT_LETTERS = [0, 1, 2, 3, 2, 1, 2, 3, 4, 2];

export function romanLength(n: bigint): bigint {
  n = absBig(n);
  const rest = Number(n % 1000n);
  return n / 1000n + BigInt(DIGIT_LETTERS[Math.floor(rest / 100)] + DIGIT_LETTERS[Math.floor(rest / 10) % 10] + DIGIT_LETTERS[rest % 10]);
}

/** Leap years in [lo, hi] by calendar.isleap, for any integers. */
export function leapYearsBetween(lo: bigint, hi: bigint): bigint {
  if (hi < lo) return 0n;
  const multiples = (m: bigint) => floorDivBig(hi, m) - floorDivBig(lo - 1n, m);
  return multiples(4n) - multiples(100n) + multiples(400n);
}

function floorDivBig(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

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
