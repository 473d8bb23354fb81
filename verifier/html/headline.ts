import type { Estimate } from '../../common/stats.js';
import type { Headline } from './view-types.js';

/** How the overview cards write a share, a number and an estimate with its 95% interval (every family's view). */
export const pct = (v: number | null): string => (v === null ? '–' : `${(100 * v).toFixed(1)}%`);
export const num = (v: number | null, digits = 1): string => (v === null ? '–' : v.toFixed(digits));

export function estimateHeadline(key: string, label: string, e: Estimate): Headline {
  return { key, label, value: pct(e.mean), interval: e.mean === null ? undefined : `${pct(e.lo)} – ${pct(e.hi)}`, mean: e.mean };
}
