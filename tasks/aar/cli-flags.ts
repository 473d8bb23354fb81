import type { Command } from 'commander';
import { packagePath } from '../../paths.js';
import type { TaskFilter } from './filter.js';
import type { LoadedLeg } from './load.js';

/** The legs `aar tasks` reads when given no path. */
export const DEFAULT_TASKS_PATH = packagePath('tasks', 'examples');

const list = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(',').filter(Boolean)];

export interface FilterFlags {
  variant?: string[];
  level?: string[];
  id?: string[];
  exclude?: string[];
  limit?: string;
  sample?: string;
  seed?: string;
}

const FLAG_OF: Record<string, string> = { variants: '--variant', levels: '--level', ids: '--id', exclude: '--exclude', limit: '--limit', sample: '--sample' };

/** The filter the flags ask for; a bad value is one line naming the flag (not zod's JSON). */
export async function filterFromFlags(flags: FilterFlags): Promise<TaskFilter> {
  const { TaskFilterSchema } = await import('./filter.js');
  const number = (v: string | undefined): number | undefined => (v === undefined ? undefined : /^-?\d+$/.test(v.trim()) ? Number(v) : NaN);
  const filter: TaskFilter = {
    variants: flags.variant,
    levels: flags.level as TaskFilter['levels'],
    ids: flags.id,
    exclude: flags.exclude,
    limit: number(flags.limit),
    sample: flags.sample === undefined ? undefined : { n: number(flags.sample)!, seed: number(flags.seed ?? '0')! },
  };
  const parsed = TaskFilterSchema.safeParse(filter);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const [key, sub] = issue.path;
    const flag = key === 'sample' && sub === 'seed' ? '--seed' : (FLAG_OF[String(key)] ?? `--${String(key)}`);
    const given = key === 'levels' ? flags.level?.[Number(sub)] : key === 'sample' ? (sub === 'seed' ? flags.seed : flags.sample) : key === 'limit' ? flags.limit : undefined;
    const expected = key === 'levels' ? 'one of easy, medium, hard, extreme' : 'a positive whole number';
    throw new Error(`${flag}: expected ${key === 'sample' && sub === 'seed' ? 'a whole number' : expected}, got ${given ?? JSON.stringify(issue.message)}`);
  }
  return filter;
}

/** The leg filter flags, shared by `aar tasks list`, `aar run` and `aar plan`. */
export const addFilterOptions = (cmd: Command): Command =>
  cmd
    .option('--variant <names>', 'only these variants (comma-separated, repeatable)', list)
    .option('--level <levels>', 'only these levels: easy, medium, hard, extreme', list)
    .option('--id <globs>', 'only legs whose id matches one of these globs', list)
    .option('--exclude <globs>', 'skip legs whose id matches one of these globs', list)
    .option('--sample <n>', 'a seeded random sample of n legs')
    .option('--seed <n>', 'seed of --sample (default 0)')
    .option('--limit <n>', 'the first n legs after the other filters');

/** The legs under a path, the filter flags applied; unreadable legs are refused, and so is a filter that keeps none. */
export async function loadFilteredLegs(legsPath: string, flags: FilterFlags): Promise<LoadedLeg[]> {
  const { loadLegs } = await import('./load.js');
  const { filterLegs } = await import('./filter.js');
  const { InputError } = await import('../problems.js');
  const { legs: loaded, problems } = await loadLegs(legsPath);
  if (problems.length) throw new InputError(problems);
  const legs = filterLegs(loaded, await filterFromFlags(flags));
  if (!legs.length) throw new Error(`${legsPath}: no leg of the ${loaded.length} loaded matches the filters`);
  return legs;
}
