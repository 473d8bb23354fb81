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

/** Mean of values in [0, 1] (PVR, RCR) with a normal-approximation interval, clipped to [0, 1]. */
export function boundedMean(values: readonly number[]): Estimate {
  const n = values.length;
  if (n === 0) return { n, mean: null, lo: null, hi: null };
  const mean = values.reduce((a, b) => a + b, 0) / n;
  if (n === 1) return { n, mean, lo: 0, hi: 1 };
  const variance = values.reduce((a, v) => a + (v - mean) ** 2, 0) / (n - 1);
  const half = Z * Math.sqrt(variance / n);
  return { n, mean, lo: Math.max(0, mean - half), hi: Math.min(1, mean + half) };
}

/** Mean of the defined values, or null when there are none. */
export function meanOf(values: ReadonlyArray<number | null | undefined>): number | null {
  const defined = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  return defined.length ? defined.reduce((a, b) => a + b, 0) / defined.length : null;
}
