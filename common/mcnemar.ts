/**
 * The exact McNemar test compare runs on 0/1 legs, and its power computed exactly: by enumerating every
 * outcome of n paired legs through this same test, not by a normal approximation.
 */

/** Two-sided exact McNemar test: the discordant pairs (b: only A right, c: only B right) under Binomial(b + c, 1/2). */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  // P(X <= k) for X ~ Bin(n, 1/2), summed in log space so n in the thousands stays exact enough.
  let logTerm = -n * Math.LN2; // log C(n, 0) / 2^n
  let tail = Math.exp(logTerm);
  for (let i = 1; i <= k; i++) {
    logTerm += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logTerm);
  }
  return Math.min(1, 2 * tail);
}

const limitsCache = new Map<string, Int32Array>();

/**
 * For every number of discordant legs d = 0..n, the largest c such that mcnemarExact(c, d - c) < alpha
 * (-1: no split of d rejects). The test rejects exactly when the smaller discordant count is at most
 * limits[d]. Found by asking mcnemarExact itself; c never falls as d grows, so one walk finds them all.
 */
export function mcnemarRejectionLimits(n: number, alpha: number): Int32Array {
  const key = `${n}/${alpha}`;
  const known = limitsCache.get(key);
  if (known) return known;
  const limits = new Int32Array(n + 1);
  let c = -1;
  for (let d = 0; d <= n; d++) {
    while (c + 1 <= d - (c + 1) && mcnemarExact(c + 1, d - (c + 1)) < alpha) c++;
    limits[d] = c;
  }
  if (limitsCache.size > 64) limitsCache.clear();
  limitsCache.set(key, limits);
  return limits;
}

const logFactorials: number[] = [0];
function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) logFactorials.push(logFactorials[i - 1] + Math.log(i));
  return logFactorials[n];
}

/** x log y with 0 log 0 = 0. */
const xLogY = (x: number, y: number): number => (x === 0 ? 0 : x * Math.log(y));

/**
 * P(X <= c) for X ~ Binomial(d, p): the term at c from log space, then down to 0 by the ratio of
 * neighbouring terms, stopping once they no longer change the sum (below the mode they only shrink).
 */
function binomialCdf(c: number, d: number, p: number): number {
  if (c < 0) return 0;
  if (c >= d) return 1;
  if (p <= 0) return 1;
  if (p >= 1) return 0;
  let term = Math.exp(logFactorial(d) - logFactorial(c) - logFactorial(d - c) + xLogY(c, p) + xLogY(d - c, 1 - p));
  let sum = term;
  const odds = (1 - p) / p;
  const belowMode = c <= d * p;
  for (let x = c; x > 0; x--) {
    term *= (x / (d - x + 1)) * odds;
    sum += term;
    if (belowMode && term < sum * 1e-17) break;
  }
  return Math.min(1, sum);
}

/**
 * Exact power of the two-sided exact McNemar test at level alpha on n paired legs, where a leg is "only A
 * right" with probability onlyA and "only B right" with probability onlyB (the rest concordant): the sum,
 * over every number of discordant legs d, of P(d) times the probability that their split lands in the
 * test's rejection region. No approximation beyond floating point.
 */
export function mcnemarPower(n: number, onlyA: number, onlyB: number, alpha = 0.05): number {
  const discordance = onlyA + onlyB;
  if (n <= 0 || discordance <= 0) return 0;
  const towardB = onlyB / discordance;
  const limits = mcnemarRejectionLimits(n, alpha);
  const head = logFactorial(n);
  let power = 0;
  for (let d = 1; d <= n; d++) {
    const c = limits[d];
    if (c < 0) continue;
    const pD = Math.exp(head - logFactorial(d) - logFactorial(n - d) + xLogY(d, discordance) + xLogY(n - d, 1 - discordance));
    if (pD < 1e-16) continue;
    // The smaller count is at most c: B's count at most c, or A's (d minus B's) at most c.
    power += pD * (binomialCdf(c, d, towardB) + binomialCdf(c, d, 1 - towardB));
  }
  return Math.min(1, power);
}

/** The smallest x in [lo, hi] with rising(x) >= target, by bisection (rising is taken to rise with x); null when even hi falls short. */
export function smallestReaching(rising: (x: number) => number, target: number, lo: number, hi: number, tolerance = 1e-5): number | null {
  if (rising(hi) < target) return null;
  while (hi - lo > tolerance) {
    const mid = (lo + hi) / 2;
    if (rising(mid) >= target) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * Minimum detectable difference of the exact McNemar test, exact: the smallest true difference in success
 * rate (b - a) that the test detects with `power` at level alpha on n legs. Two settings of what else is
 * true: `planned` (no data yet: each configuration near 50% and the two independent, as `aar plan`
 * assumes) or `discordance` (compare's rows: the share of legs on which the two differ, as measured, held
 * while the difference grows up to it). Null when no difference reaches the power.
 */
export function mcnemarMde(n: number, setting: { planned: true } | { discordance: number }, alpha = 0.05, power = 0.8): number | null {
  if (n < 1) return null;
  if ('planned' in setting) {
    // a = 0.5 - delta/2, b = 0.5 + delta/2, independent: only A right = a(1 - b), only B right = b(1 - a).
    return smallestReaching((delta) => mcnemarPower(n, (0.5 - delta / 2) ** 2, (0.5 + delta / 2) ** 2, alpha), power, 0, 1);
  }
  const psi = setting.discordance;
  if (!(psi > 0)) return null;
  return smallestReaching((delta) => mcnemarPower(n, (psi - delta) / 2, (psi + delta) / 2, alpha), power, 0, Math.min(1, psi));
}
