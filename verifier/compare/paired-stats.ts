import { seededRandom } from '../../common/random.js';
import { proportion, tQuantile975 } from '../../common/stats.js';

export { mcnemarExact } from '../../common/mcnemar.js';

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

function checkPaired(a: readonly number[], b: readonly number[], what: string): void {
  if (a.length !== b.length) throw new Error(`${what}: the two samples must be paired (equal length)`);
}

const EMPTY: PairedInterval = { n: 0, meanA: null, meanB: null, diff: null, lo: null, hi: null };

/**
 * The mean paired difference (b - a) with a 95% percentile interval from a seeded paired bootstrap: the
 * units (legs, one value each per configuration) are resampled with replacement, each keeping its two values.
 */
export function pairedBootstrap(a: readonly number[], b: readonly number[], options: { seed?: number; resamples?: number } = {}): PairedInterval {
  checkPaired(a, b, 'pairedBootstrap');
  const n = a.length;
  if (n === 0) return { ...EMPTY };
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

/** Student's t interval of the mean paired difference (b - a), for small n where the bootstrap under-covers. */
export function pairedTInterval(a: readonly number[], b: readonly number[]): PairedInterval {
  checkPaired(a, b, 'pairedTInterval');
  const n = a.length;
  if (n === 0) return { ...EMPTY };
  const d = a.map((x, i) => b[i] - x);
  const diff = mean(d);
  if (n === 1) return { n, meanA: a[0], meanB: b[0], diff, lo: -1, hi: 1 };
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - diff) ** 2, 0) / (n - 1));
  const half = tQuantile975(n - 1) * (sd / Math.sqrt(n));
  return { n, meanA: mean(a), meanB: mean(b), diff, lo: Math.max(-1, diff - half), hi: Math.min(1, diff + half) };
}

/**
 * Newcombe's hybrid score interval (1998, method 10) for the difference of two paired proportions
 * (b - a, each value 0 or 1): Wilson intervals of both proportions combined with the pairs' correlation.
 * It holds its coverage at small n and never collapses to zero width at 0 or 100%.
 */
export function newcombePaired(a: readonly number[], b: readonly number[]): PairedInterval {
  checkPaired(a, b, 'newcombePaired');
  const n = a.length;
  if (n === 0) return { ...EMPTY };
  let both = 0, onlyA = 0, onlyB = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] === 1 && b[i] === 1) both++;
    else if (a[i] === 1) onlyA++;
    else if (b[i] === 1) onlyB++;
  }
  const neither = n - both - onlyA - onlyB;
  const p1 = (both + onlyA) / n;
  const p2 = (both + onlyB) / n;
  const w1 = proportion(both + onlyA, n);
  const w2 = proportion(both + onlyB, n);
  const denominator = (both + onlyA) * (onlyB + neither) * (both + onlyB) * (onlyA + neither);
  // Newcombe's phi, with his continuity adjustment of the numerator (n/2 off a positive association).
  const association = both * neither - onlyA * onlyB;
  const adjusted = association > n / 2 ? association - n / 2 : association < 0 ? association : 0;
  const phi = denominator === 0 ? 0 : adjusted / Math.sqrt(denominator);
  const [l1, u1, l2, u2] = [w1.lo!, w1.hi!, w2.lo!, w2.hi!];
  const diff = p2 - p1;
  const down = Math.sqrt(Math.max(0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2));
  const up = Math.sqrt(Math.max(0, (u2 - p2) ** 2 - 2 * phi * (u2 - p2) * (p1 - l1) + (p1 - l1) ** 2));
  return { n, meanA: p1, meanB: p2, diff, lo: Math.max(-1, diff - down), hi: Math.min(1, diff + up) };
}

export interface SignFlipResult {
  p: number;
  /** `exact` (the whole sign-flip distribution, counted) or `monte carlo` (seeded random sign flips). */
  method: 'exact' | 'monte carlo';
}

const SCALES = [1, 2, 3, 4, 5, 6, 8, 10, 12, 15, 20, 24, 30, 60];
const EXACT_WORK_LIMIT = 6e7;

/** The smallest scale making every value a whole number (per-leg means of k attempts: k), or null. */
function integerScale(values: readonly number[]): number | null {
  return SCALES.find((s) => values.every((v) => Math.abs(v * s - Math.round(v * s)) < 1e-9)) ?? null;
}

/**
 * Two-sided paired sign-flip (permutation) test of per-unit differences d = b - a: under "no difference"
 * each unit's sign is a fair coin, so p = P(|sum of randomly signed |d|| >= |observed sum|). Exact (the
 * distribution counted by dynamic programming) when the differences are fractions of a small whole number,
 * as per-leg means of k binary attempts are; seeded Monte Carlo otherwise. On 0/1 values it is the exact
 * McNemar test.
 */
export function signFlipTest(d: readonly number[], options: { seed?: number; resamples?: number } = {}): SignFlipResult {
  const nonzero = d.filter((x) => x !== 0);
  if (!nonzero.length) return { p: 1, method: 'exact' };
  const scale = integerScale(nonzero);
  if (scale !== null) {
    const weights = nonzero.map((x) => Math.round(Math.abs(x) * scale));
    const total = weights.reduce((s, w) => s + w, 0);
    if (weights.length * total <= EXACT_WORK_LIMIT) {
      const observed = Math.abs(nonzero.reduce((s, x) => s + Math.round(x * scale), 0));
      // dist[s + total] = P(sum = s) after the weights so far; the reachable range grows by each weight.
      let dist = new Float64Array(2 * total + 1);
      let next = new Float64Array(2 * total + 1);
      dist[total] = 1;
      let reach = 0;
      for (const w of weights) {
        next.fill(0, total - reach - w, total + reach + w + 1);
        for (let s = total - reach; s <= total + reach; s++) {
          const q = dist[s] / 2;
          if (q === 0) continue;
          next[s - w] += q;
          next[s + w] += q;
        }
        [dist, next] = [next, dist];
        reach += w;
      }
      let p = 0;
      for (let s = -total; s <= total; s++) if (Math.abs(s) >= observed) p += dist[s + total];
      return { p: Math.min(1, p), method: 'exact' };
    }
  }
  const resamples = options.resamples ?? 2000;
  const random = seededRandom(options.seed ?? 0);
  const observed = Math.abs(nonzero.reduce((s, x) => s + x, 0)) - 1e-12;
  let extreme = 0;
  for (let r = 0; r < resamples; r++) {
    let s = 0;
    for (const x of nonzero) s += random() < 0.5 ? x : -x;
    if (Math.abs(s) >= observed) extreme++;
  }
  return { p: (extreme + 1) / (resamples + 1), method: 'monte carlo' };
}

/** Holm's step-down adjustment: family-wise error controlled over all the p-values given (nulls stay null). */
export function holmAdjust(pValues: readonly (number | null)[]): (number | null)[] {
  const order = pValues.map((p, i) => [p, i] as const).filter((x): x is readonly [number, number] => x[0] !== null).sort((x, y) => x[0] - y[0]);
  const out: (number | null)[] = pValues.map(() => null);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (order.length - rank) * p));
    out[i] = running;
  });
  return out;
}
