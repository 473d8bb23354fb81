import { seededRandom } from '../../tasks/random.js';

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

export interface PairedInterval {
  n: number;
  meanA: number | null;
  meanB: number | null;
  /** Mean of b - a over the pairs. */
  diff: number | null;
  lo: number | null;
  hi: number | null;
}

const mean = (xs: ArrayLike<number>): number => {
  let s = 0;
  for (let i = 0; i < xs.length; i++) s += xs[i];
  return s / xs.length;
};

/**
 * The mean paired difference (b - a) with a 95% percentile interval from a seeded paired bootstrap: legs
 * are resampled with replacement, each keeping its two values, so the interval reflects the pairing.
 */
export function pairedBootstrap(a: readonly number[], b: readonly number[], options: { seed?: number; resamples?: number } = {}): PairedInterval {
  const n = a.length;
  if (n !== b.length) throw new Error('pairedBootstrap: the two samples must be paired (equal length)');
  if (n === 0) return { n, meanA: null, meanB: null, diff: null, lo: null, hi: null };
  const d = Float64Array.from(a, (x, i) => b[i] - x);
  const diff = mean(d);
  const resamples = options.resamples ?? 2000;
  const random = seededRandom(options.seed ?? 0);
  const stats = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (let i = 0; i < n; i++) s += d[Math.floor(random() * n)];
    stats[r] = s / n;
  }
  stats.sort();
  const at = (q: number): number => stats[Math.min(resamples - 1, Math.max(0, Math.round(q * (resamples - 1))))];
  return { n, meanA: mean(a), meanB: mean(b), diff, lo: at(0.025), hi: at(0.975) };
}
