import { mcnemarExact, newcombePaired, pairedBootstrap, pairedTInterval, signFlipTest, type PairedInterval } from './paired-stats.js';

/** Below this many legs a figure is flagged: its interval is wide and its slice says little on its own. */
export const SMALL_N = 30;
/** From this many legs the interval of a non-binary mean is the paired bootstrap; below, Student's t. */
export const BOOTSTRAP_MIN_N = 100;

export interface PairedComparison extends PairedInterval {
  /** How the interval was made: `Newcombe` (0/1 per leg), `bootstrap` (legs resampled, n >= 100) or `t` (smaller n). */
  interval: 'Newcombe' | 'bootstrap' | 't' | null;
  p: number | null;
  /** `McNemar exact` (0/1 per leg), `sign-flip exact` or `sign-flip Monte Carlo` (per-leg means). */
  test: 'McNemar exact' | 'sign-flip exact' | 'sign-flip Monte Carlo' | null;
  /** Legs where a's value is above b's, and below (the discordant legs when values are 0/1). */
  aAbove: number;
  bAbove: number;
  smallN: boolean;
}

/**
 * The paired comparison of one metric on legs, one value per leg and configuration (attempts already
 * reduced): difference b - a, a 95% interval that holds at small n, and an exact (or seeded Monte Carlo)
 * test on the legs.
 */
export function comparePaired(a: readonly number[], b: readonly number[], options: { seed?: number; resamples?: number } = {}): PairedComparison {
  const n = a.length;
  let aAbove = 0;
  let bAbove = 0;
  for (let i = 0; i < n; i++) {
    if (a[i] > b[i]) aAbove++;
    else if (b[i] > a[i]) bAbove++;
  }
  const base = { aAbove, bAbove, smallN: n < SMALL_N };
  if (n === 0) return { ...pairedTInterval([], []), interval: null, p: null, test: null, ...base };
  const zeroOne = a.every((x) => x === 0 || x === 1) && b.every((x) => x === 0 || x === 1);
  if (zeroOne) return { ...newcombePaired(a, b), interval: 'Newcombe', p: mcnemarExact(aAbove, bAbove), test: 'McNemar exact', ...base };
  const interval = n >= BOOTSTRAP_MIN_N ? pairedBootstrap(a, b, options) : pairedTInterval(a, b);
  const flip = signFlipTest(a.map((x, i) => b[i] - x), options);
  return { ...interval, interval: n >= BOOTSTRAP_MIN_N ? 'bootstrap' : 't', p: flip.p, test: flip.method === 'exact' ? 'sign-flip exact' : 'sign-flip Monte Carlo', ...base };
}
