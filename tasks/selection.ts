import { z } from 'zod';
import { seededRandom, shuffleInPlace } from '../common/random.js';

/** The filter keys every family's `tasks` section has besides its own (applied after them, in this order). */
export const commonFilterFields = {
  ids: z
    .array(z.string())
    .optional()
    .describe('Only tasks whose id matches one of these ids or globs (`*` within a path segment, `**` across): `aar-dag/easy/sample_003`, `**/sample_1*`.'),
  exclude: z.array(z.string()).optional().describe('Leave out tasks whose id matches one of these ids or globs.'),
  sample: z
    .strictObject({
      n: z.number().int().positive().describe('How many tasks.'),
      seed: z.number().int().default(0).describe('The seed of the draw: the same seed gives the same tasks.'),
    })
    .optional()
    .describe('A seeded random sample of n tasks.'),
  limit: z.number().int().positive().optional().describe('The first n tasks (in id order) after the other filters.'),
};

export interface CommonFilter {
  ids?: string[];
  exclude?: string[];
  sample?: { n: number; seed: number };
  limit?: number;
}

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

/**
 * The tasks a filter selects, sorted by id: those `keep` accepts (the family's own keys), then ids,
 * exclude, a seeded sample and a limit.
 */
export function selectTasks<T extends { id: string }>(tasks: readonly T[], f: CommonFilter, keep: (task: T) => boolean = () => true): T[] {
  let out = [...tasks].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)).filter(keep);
  if (f.ids) {
    const patterns = f.ids.map(globToRegExp);
    out = out.filter((t) => matchesAny(t.id, patterns));
  }
  if (f.exclude) {
    const patterns = f.exclude.map(globToRegExp);
    out = out.filter((t) => !matchesAny(t.id, patterns));
  }
  if (f.sample && f.sample.n < out.length) {
    const chosen = new Set(shuffleInPlace([...out], seededRandom(f.sample.seed)).slice(0, f.sample.n));
    out = out.filter((t) => chosen.has(t));
  }
  if (f.limit !== undefined) out = out.slice(0, f.limit);
  return out;
}
