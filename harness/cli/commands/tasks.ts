import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { packagePath } from '../../../paths.js';
import type { TaskFilter } from '../../../tasks/aar/filter.js';
import type { LoadedLeg } from '../../../tasks/aar/load.js';

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
  const { TaskFilterSchema } = await import('../../../tasks/aar/filter.js');
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

/** Loads legs and prints load problems to stderr; the caller decides whether problems are fatal. */
async function loadReporting(paths: string[]): Promise<{ legs: LoadedLeg[]; problemCount: number }> {
  const { loadLegs } = await import('../../../tasks/aar/load.js');
  const { formatProblem } = await import('../../../tasks/problems.js');
  const { legs, problems } = await loadLegs(paths);
  for (const p of problems) process.stderr.write(formatProblem(p) + '\n');
  return { legs, problemCount: problems.length };
}

export function registerTasksCommands(program: Command): void {
  const tasks = program.command('tasks').description('AAR legs: list, show and validate them');

  addFilterOptions(tasks.command('list').argument('[paths...]', 'leg files or folders', [DEFAULT_TASKS_PATH]))
    .description('list legs with their number of stops K and step budget B')
    .option('--json', 'print JSON')
    .action(async (paths: string[], flags: FilterFlags & { json?: boolean }) => {
      const { legs, problemCount } = await loadReporting(paths);
      const { filterLegs } = await import('../../../tasks/aar/filter.js');
      const { stepBudget } = await import('../../../tasks/aar/schema.js');
      const chosen = filterLegs(legs, await filterFromFlags(flags));
      if (flags.json) {
        process.stdout.write(JSON.stringify(chosen.map((l) => ({ id: l.id, file: l.file, stops: l.leg.stops.length, budget: stepBudget(l.leg) })), null, 2) + '\n');
      } else {
        for (const l of chosen) {
          const count = (t: string): number => l.leg.stops.filter((s) => s.stop_type === t).length;
          process.stdout.write(
            `${l.id.padEnd(34)} K=${String(l.leg.stops.length).padEnd(3)} B=${String(stepBudget(l.leg)).padEnd(3)} ` +
              `page=${count('page')} tool=${count('tool')} reason=${count('reason')}  ${l.leg.seed_title}\n`,
          );
        }
        process.stdout.write(`${chosen.length} legs\n`);
      }
      if (!chosen.length && legs.length) {
        const found = (pick: (l: LoadedLeg) => string): string => [...new Set(legs.map(pick))].sort().join(', ');
        process.stderr.write(`aar: no leg of the ${legs.length} loaded matches the filters (variants: ${found((l) => l.variant)}; levels: ${found((l) => l.level)})\n`);
        process.exitCode = 1;
      }
      if (!legs.length) {
        process.stderr.write(`aar: no legs found under ${paths.join(', ')}\n`);
        process.exitCode = 1;
      }
      if (problemCount) process.exitCode = 1;
    });

  tasks
    .command('show')
    .argument('<leg>', 'a leg file, or a leg id found under --path')
    .option('--path <paths...>', 'where to look for a leg id', [DEFAULT_TASKS_PATH])
    .option('--instruction', 'print the instruction.md the agent would get')
    .option('--json', 'print the leg as JSON')
    .description('show one leg: its stops, golden values and passcode')
    .action(async (ref: string, flags: { path: string[]; instruction?: boolean; json?: boolean }) => {
      const { legs } = await loadReporting(existsSync(ref) ? [ref] : flags.path);
      const found = existsSync(ref) ? legs[0] : legs.find((l) => l.id === ref);
      if (!found) throw new Error(`no leg ${ref} under ${flags.path.join(', ')}`);
      if (flags.instruction) {
        const { renderInstruction } = await import('../../../tasks/aar/instruction.js');
        process.stdout.write(renderInstruction(found.leg));
      } else if (flags.json) {
        process.stdout.write(found.source);
      } else {
        process.stdout.write((await import('./show-leg.js')).describeLeg(found));
      }
    });

  tasks
    .command('validate')
    .argument('[paths...]', 'leg files or folders', [DEFAULT_TASKS_PATH])
    .description('recompute every reason, compute and python step from the golden trace; non-zero exit on any mismatch')
    .option('--notes', 'also list the notes (reason stops whose source value changed after they were computed)')
    .action(async (paths: string[], flags: { notes?: boolean }) => {
      const { legs, problemCount } = await loadReporting(paths);
      const { validateLegs, formatValidationReport } = await import('../../../tasks/aar/golden/validate.js');
      const report = validateLegs(legs);
      process.stdout.write(formatValidationReport(report, { notes: flags.notes }) + '\n');
      if (problemCount) process.stdout.write(`${problemCount} files could not be loaded (see above)\n`);
      if (problemCount || report.mismatches.length) process.exitCode = 1;
    });
}
