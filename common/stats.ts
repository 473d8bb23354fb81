/** Small statistics for the report columns of task families. All intervals are 95%. */

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
 * Mean of values in [0, 1] (PVR, RCR) with a normal-approximation interval, clipped to [0, 1]. Values all
 * alike show no spread, which is no evidence of none (two legs at 100% would give [100, 100]): then the
 * interval is Wilson's at that mean, the widest a variable in [0, 1] with that mean can need.
 */
export function boundedMean(values: readonly number[]): Estimate {
  const n = values.length;
  if (n === 0) return { n, mean: null, lo: null, hi: null };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { n, mean, lo: 0, hi: 1 };
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
  if (variance === 0) return proportion(mean * n, n);
  const half = Z * Math.sqrt(variance / n);
  return { n, mean, lo: Math.max(0, mean - half), hi: Math.min(1, mean + half) };
}

/** Mean of the defined values, or null when there are none. */
export function meanOf(values: ReadonlyArray<number | null | undefined>): number | null {
  const defined = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return defined.length ? defined.reduce((a, b) => a + b, 0) / defined.length : null;
}

/** Two-sided 95% quantile of Student's t with df degrees of freedom (exact for df <= 4; Cornish-Fisher beyond, within 1e-4). */
export function tQuantile975(df: number): number {
  const exact = [12.7062, 4.3027, 3.1824, 2.7764];
  if (df <= 4) return exact[Math.max(1, Math.round(df)) - 1];
  const z = Z;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df ** 2) + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * df ** 3);
}

/** z of 80% power (one-sided 0.8 quantile of the standard normal). */
const Z_POWER_80 = 0.8416212335729143;

/**
 * The smallest true difference in success rate (FA) between two configurations that a two-sided test at
 * alpha = 0.05 detects with 80% power on `legs` paired legs of `attempts` attempts each (normal
 * approximation on per-leg means): (z_0.975 + z_0.8) x sd(per-leg difference) / sqrt(legs).
 * Without data the per-leg spread is bounded by assuming a success rate near 50% and no correlation between
 * the configurations: `attemptsIndependent` if a leg's attempts were independent draws (k attempts
 * shrink the spread by sqrt(k)), `attemptsIdentical` if every attempt repeats the first (attempts add
 * nothing). The truth lies between; a positive correlation between configurations (shared leg difficulty)
 * makes both smaller. With `perLegSd` (measured on per-leg differences), that spread is used instead.
 */
export function minimumDetectableDifference(legs: number, attempts = 1, perLegSd?: number): { attemptsIndependent: number; attemptsIdentical: number } | null {
  if (legs < 2) return null;
  const factor = (Z + Z_POWER_80) / Math.sqrt(legs);
  if (perLegSd !== undefined) return { attemptsIndependent: factor * perLegSd, attemptsIdentical: factor * perLegSd };
  const single = Math.sqrt(2 * 0.25);
  return { attemptsIndependent: factor * single / Math.sqrt(Math.max(1, attempts)), attemptsIdentical: factor * single };
}
