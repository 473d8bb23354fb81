/**
 * Number theory as the AAR legs' Python snippets compute it (prime factors, divisors, next prime, roman
 * numerals, leap years), natively with exact integers: used by the reason transforms and by the
 * interpreter for the snippets' known function definitions.
 */
import { MAX_SAFE, Unsupported, absBig } from '../values.js';

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
