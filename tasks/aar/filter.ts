import { z } from 'zod';
import type { LoadedLeg } from './load.js';
import { LEVELS } from './schema.js';
import { seededRandom } from '../random.js';

/** Which legs of a task set to run. Filters apply in this order: variant, level, ids, exclude, sample, limit. */
export const TaskFilterSchema = z.strictObject({
  variants: z.array(z.string()).optional(),
  levels: z.array(z.enum(LEVELS)).optional(),
  /** Leg ids or globs over them: `aar-dag/easy/sample_003`, `aar-dag/*\/sample_00*`, `**\/sample_1*`. */
  ids: z.array(z.string()).optional(),
  exclude: z.array(z.string()).optional(),
  /** A seeded random sample of n legs: the same seed gives the same legs. */
  sample: z.strictObject({ n: z.number().int().positive(), seed: z.number().int().default(0) }).optional(),
  /** The first n legs (in id order) after the other filters. */
  limit: z.number().int().positive().optional(),
});
export type TaskFilter = z.input<typeof TaskFilterSchema>;

/** `*` stays within one path segment, `**` crosses segments, `?` is one character. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      re += '.*';
      i++;
      if (glob[i + 1] === '/') i++;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

const matchesAny = (id: string, patterns: RegExp[]): boolean => patterns.some((p) => p.test(id));

export { seededRandom };

export function filterLegs(legs: readonly LoadedLeg[], filter: TaskFilter = {}): LoadedLeg[] {
  const f = TaskFilterSchema.parse(filter);
  let out = [...legs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  if (f.variants) out = out.filter((l) => f.variants!.includes(l.variant));
  if (f.levels) out = out.filter((l) => (f.levels as string[]).includes(l.level));
  if (f.ids) {
    const patterns = f.ids.map(globToRegExp);
    out = out.filter((l) => matchesAny(l.id, patterns));
  }
  if (f.exclude) {
    const patterns = f.exclude.map(globToRegExp);
    out = out.filter((l) => !matchesAny(l.id, patterns));
  }
  if (f.sample && f.sample.n < out.length) {
    const random = seededRandom(f.sample.seed);
    const pool = [...out];
    for (let i = pool.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [pool[i], pool[j]] = [pool[j], pool[i]];
    }
    const chosen = new Set(pool.slice(0, f.sample.n));
    out = out.filter((l) => chosen.has(l));
  }
  if (f.limit !== undefined) out = out.slice(0, f.limit);
  return out;
}
