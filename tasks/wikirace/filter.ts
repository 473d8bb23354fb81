import { z } from 'zod';
import { commonFilterFields, selectTasks } from '../selection.js';
import type { LoadedPair } from './load.js';
import { SPLITS } from './schema.js';

/** Which pairs to run. Filters apply in this order: splits, ids, exclude, sample, limit. */
export const PairFilterSchema = z.strictObject({
  splits: z.array(z.enum(SPLITS)).optional().describe('Only pairs of these splits (by shortest-path length: easy 3-4, medium 5-6, hard 7-8).'),
  ...commonFilterFields,
});
export type PairFilter = z.input<typeof PairFilterSchema>;

export function filterPairs(pairs: readonly LoadedPair[], filter: PairFilter = {}): LoadedPair[] {
  const f = PairFilterSchema.parse(filter);
  return selectTasks(pairs, f, (p) => !f.splits || (f.splits as string[]).includes(p.pair.split));
}
