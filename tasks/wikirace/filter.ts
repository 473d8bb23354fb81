import { z } from 'zod';
import { globToRegExp } from '../aar/filter.js';
import { seededRandom, shuffleInPlace } from '../random.js';
import type { LoadedPair } from './load.js';
import { SPLITS } from './schema.js';

/** Which pairs to run. Filters apply in this order: splits, ids, exclude, sample, limit. */
export const PairFilterSchema = z.strictObject({
  splits: z.array(z.enum(SPLITS)).optional(),
  /** Task ids or globs over them: `easy/pair_003`, `hard/*`. */
  ids: z.array(z.string()).optional(),
  exclude: z.array(z.string()).optional(),
  /** A seeded random sample of n pairs: the same seed gives the same pairs. */
  sample: z.strictObject({ n: z.number().int().positive(), seed: z.number().int().default(0) }).optional(),
  limit: z.number().int().positive().optional(),
});
export type PairFilter = z.input<typeof PairFilterSchema>;

export function filterPairs(pairs: readonly LoadedPair[], filter: PairFilter = {}): LoadedPair[] {
  const f = PairFilterSchema.parse(filter);
  let out = [...pairs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (f.splits) out = out.filter((p) => (f.splits as string[]).includes(p.pair.split));
  if (f.ids) {
    const patterns = f.ids.map(globToRegExp);
    out = out.filter((p) => patterns.some((re) => re.test(p.id)));
  }
  if (f.exclude) {
    const patterns = f.exclude.map(globToRegExp);
    out = out.filter((p) => !patterns.some((re) => re.test(p.id)));
  }
  if (f.sample && f.sample.n < out.length) {
    const chosen = new Set(shuffleInPlace([...out], seededRandom(f.sample.seed)).slice(0, f.sample.n));
    out = out.filter((p) => chosen.has(p));
  }
  if (f.limit !== undefined) out = out.slice(0, f.limit);
  return out;
}
