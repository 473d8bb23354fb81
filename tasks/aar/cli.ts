import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { addFormatOption, formatOf } from '../../common/format-option.js';
import type { FamilyCli } from '../family.js';
import { registerAuditCommand, registerLegsCommands } from './generate/cli.js';
import { addFilterOptions, DEFAULT_TASKS_PATH, filterFromFlags, type FilterFlags } from './cli-flags.js';
import type { LoadedLeg } from './load.js';

/** Loads legs and prints load problems to stderr, one `aar:` line each; the caller decides whether problems are fatal. */
async function loadReporting(paths: string[]): Promise<{ legs: LoadedLeg[]; problemCount: number }> {
  const { loadLegs } = await import('./load.js');
  const { formatProblem } = await import('../problems.js');
  const { legs, problems } = await loadLegs(paths);
  for (const p of problems) process.stderr.write(`aar: ${formatProblem(p)}\n`);
  return { legs, problemCount: problems.length };
}

/** `aar tasks list`: id, stops K and budget B of each leg the filters choose. */
function registerList(tasks: Command): void {
  addFormatOption(addFilterOptions(tasks.command('list').argument('[paths...]', 'leg files or folders', [DEFAULT_TASKS_PATH])), 'id, file, stops and budget of each leg')
    .description('list legs with their number of stops K and step budget B')
    .action(async (paths: string[], flags: FilterFlags & { format?: string; json?: boolean }) => {
      const format = formatOf(flags);
      const { legs, problemCount } = await loadReporting(paths);
      const { filterLegs } = await import('./filter.js');
      const { stepBudget } = await import('./schema.js');
      const chosen = filterLegs(legs, await filterFromFlags(flags));
      // Nothing could be read: the problems above say why, and a count of 0 would only repeat it.
      if (!legs.length && problemCount) {
        process.exitCode = 1;
        return;
      }
      if (format === 'json') {
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
}

/** `aar tasks show`: one leg, as a description, its file or its instruction. */
function registerShow(tasks: Command): void {
  addFormatOption(
    tasks
      .command('show')
      .argument('<leg>', 'a leg file, or a leg id found under --path')
      .option('--path <paths...>', 'where to look for a leg id', [DEFAULT_TASKS_PATH])
      .option('--instruction', 'print the instruction.md the agent would get'),
    'the leg file as it is',
  )
    .description('show one leg: its stops, golden values and passcode')
    .action(async (ref: string, flags: { path: string[]; instruction?: boolean; format?: string; json?: boolean }) => {
      const format = formatOf(flags);
      const { legs } = await loadReporting(existsSync(ref) ? [ref] : flags.path);
      const found = existsSync(ref) ? legs[0] : legs.find((l) => l.id === ref);
      if (!found) throw new Error(`no leg ${ref} under ${flags.path.join(', ')}`);
      if (flags.instruction) {
        const { renderInstruction } = await import('./instruction.js');
        process.stdout.write(renderInstruction(found.leg));
      } else if (format === 'json') {
        process.stdout.write(found.source);
      } else {
        process.stdout.write((await import('./show-leg.js')).describeLeg(found));
      }
    });
}

/** `aar tasks validate`: every recomputable stop recomputed from the golden trace. */
function registerValidate(tasks: Command): void {
  tasks
    .command('validate')
    .argument('[paths...]', 'leg files or folders', [DEFAULT_TASKS_PATH])
    .description('recompute every reason, compute and python step from the golden trace; non-zero exit on any mismatch')
    .option('--notes', 'also list the notes (reason stops whose source value changed after they were computed)')
    .action(async (paths: string[], flags: { notes?: boolean }) => {
      const { legs, problemCount } = await loadReporting(paths);
      const { validateLegs, formatValidationReport } = await import('./golden/validate.js');
      const report = validateLegs(legs);
      process.stdout.write(formatValidationReport(report, { notes: flags.notes }) + '\n');
      if (problemCount) process.stdout.write(`${problemCount} files could not be loaded (see above)\n`);
      if (problemCount || report.mismatches.length) process.exitCode = 1;
    });
}

/** AAR's commands: `aar tasks list|show|validate|audit` over leg files, `aar legs generate`, and `aar score` for one trial's files. */
export const aarCli: FamilyCli = {
  tasks(tasks: Command): void {
    tasks.description('AAR legs: list, show, validate and audit them');

    registerList(tasks);
    registerShow(tasks);
    registerValidate(tasks);
    registerAuditCommand(tasks);
  },

  program(program: Command, services): void {
    registerLegsCommands(program, services);

    program
      .command('score')
      .description('score one trial from its leg, answer file and tool log, and print the score JSON')
      .requiredOption('--leg <file>', 'the leg JSON')
      .option('--answer <file>', 'the answer file (a missing file means: not answered)')
      .option('--tool-log <file>', 'the tool log, JSON Lines (a missing file means: no tool calls)')
      .option('--reference', "print only the reference verifier's reward.json fields, in its order")
      .action(async (flags: { leg: string; answer?: string; toolLog?: string; reference?: boolean }) => {
        const { readOptionalText } = await import('../../trial/folder.js');
        const { legView, scoreOnView, scoreToJson, referenceOnly } = await import('./scoring/score.js');
        const legText = readOptionalText(flags.leg);
        if (legText === null) throw new Error(`${flags.leg}: no such leg file`);
        let view: ReturnType<typeof legView>;
        try {
          view = legView(legText);
        } catch (error) {
          throw new Error(`${flags.leg}: ${(error as Error).message}`);
        }
        // Each file's errors name that file (readOptionalText); scoring the log itself is total (a line it cannot read is skipped and counted).
        const answer = flags.answer === undefined ? null : readOptionalText(flags.answer);
        let score: ReturnType<typeof scoreOnView>;
        try {
          // The tool log is read line by line, never whole (a missing file: no calls).
          score = scoreOnView(view, answer, flags.toolLog === undefined ? null : { file: flags.toolLog });
        } catch (error) {
          throw new Error(`${flags.toolLog}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
        }
        process.stdout.write(scoreToJson(flags.reference ? referenceOnly(score) : score));
      });
  },
};
