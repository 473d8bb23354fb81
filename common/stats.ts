/** Small statistics for the report columns of task families. All intervals are 95%. */
import studentTQuantile from '@stdlib/stats-base-dists-t-quantile';
import { mcnemarMde } from './mcnemar.js';

const Z = 1.959963984540054;

export interface Estimate {
  n: number;
  mean: number | null;
  lo: number | null;
  hi: number | null;
}

/** Wilson score interval of a proportion (FA, rates): well behaved at 0, 1 and small n. */
export function proportion(successes: number, n: number): Estimate {
  if (n === 0) return { n, mean: null, lo: null, hi: null };
  const p = successes / n;
  const z2 = Z * Z;
  const denom = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denom;
  const half = (Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denom;
  return { n, mean: p, lo: Math.max(0, center - half), hi: Math.min(1, center + half) };
}

/**
 * Mean of values in [0, 1] (PVR, RCR) with Student's t interval (n - 1 df, so small n is not flattered),
 * clipped to [0, 1]. Values all alike show no spread, which is no evidence of none (two legs at 100% would
 * give [100, 100]): then the interval is Wilson's at that mean, the widest a variable in [0, 1] with that
 * mean can need.
 */
export function boundedMean(values: readonly number[]): Estimate {
  const n = values.length;
  if (n === 0) return { n, mean: null, lo: null, hi: null };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { n, mean, lo: 0, hi: 1 };
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
  if (variance === 0) return proportion(mean * n, n);
  const half = tQuantile975(n - 1) * Math.sqrt(variance / n);
  return { n, mean, lo: Math.max(0, mean - half), hi: Math.min(1, mean + half) };
}

/** Mean of the defined values, or null when there are none. */
export function meanOf(values: ReadonlyArray<number | null | undefined>): number | null {
  const defined = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return defined.length ? defined.reduce((a, b) => a + b, 0) / defined.length : null;
}

/** The p quantile of Student's t with df degrees of freedom, exact (stdlib's, by the inverse incomplete beta function). */
export function tQuantile(p: number, df: number): number {
  return studentTQuantile(p, df);
}

/** Two-sided 95% quantile of Student's t with df degrees of freedom. */
export function tQuantile975(df: number): number {
  return studentTQuantile(0.975, df);
}

/**
 * Approximate minimum detectable difference of compare's sign-flip test on n per-leg differences of
 * spread `sd(delta)` at true mean difference delta, two-sided at alpha = 0.05 with 80% power. The test
 * divides the sum of the differences by the root of their sum of squares, which a true difference inflates
 * (sd^2 + delta^2 per leg, not sd^2), so it rejects when sqrt(n) delta / sd >= t1 sqrt(1 + delta^2 / sd^2) + t2,
 * with t1, t2 Student's t quantiles (0.975 and 0.8, n - 1 df: small n is not flattered). Approximate: the
 * test is exact in level on its lattice of values, not this power. Null: too few legs, or no spread.
 */
export function approximateMde(legs: number, sdAt: number | ((delta: number) => number)): number | null {
  if (legs < 2) return null;
  const sd = typeof sdAt === 'number' ? () => sdAt : sdAt;
  const t1 = tQuantile(0.975, legs - 1);
  const t2 = tQuantile(0.8, legs - 1);
  const reaches = (delta: number): number => {
    const s = sd(delta);
    // No spread left (delta = 1 with independent attempts): every leg differs by delta, the statistic is sqrt(n).
    return s > 0 ? Math.sqrt(legs) * delta / s - t1 * Math.sqrt(1 + (delta * delta) / (s * s)) - t2 : Math.sqrt(legs) - t1;
  };
  if (!(sd(0) > 0) || reaches(1) < 0) return null;
  let [lo, hi] = [0, 1];
  while (hi - lo > 1e-7) {
    const mid = (lo + hi) / 2;
    if (reaches(mid) >= 0) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * What `aar plan` can promise before any trial: the smallest true FA difference between two configurations
 * that compare's primary test detects at 80% power (alpha 0.05) on `legs` legs of `attempts` attempts,
 * each configuration's FA near 50% and the two uncorrelated (shared leg difficulty makes it smaller: a
 * bound). `attemptsIdentical` (every attempt repeats the first; with one attempt, the only case): the
 * exact McNemar test compare runs on 0/1 legs, its power computed exactly. `attemptsIndependent` (each
 * attempt an independent draw, k > 1): the sign-flip test on per-leg means, approximated (approximateMde,
 * per-leg sd sqrt((1 - d^2) / (2k)) at difference d). Null: too few legs.
 */
export function plannedMde(legs: number, attempts = 1): { attemptsIdentical: number | null; attemptsIndependent: number | null; independentApproximate: boolean } | null {
  if (legs < 2) return null;
  const identical = mcnemarMde(legs, { planned: true });
  if (attempts <= 1) return { attemptsIdentical: identical, attemptsIndependent: identical, independentApproximate: false };
  const independent = approximateMde(legs, (d) => Math.sqrt((1 - d * d) / (2 * attempts)));
  return { attemptsIdentical: identical, attemptsIndependent: independent, independentApproximate: true };
}
