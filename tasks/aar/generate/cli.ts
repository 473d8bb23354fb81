import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { aarDataDir } from '../../../paths.js';
import type { CliServices } from '../../family.js';
import { addFilterOptions, filterFromFlags, type FilterFlags } from '../cli-flags.js';

/** `aar legs generate` and `aar tasks audit`; each loads its code when it runs. */

const integer = (name: string) => (value: string): number => {
  if (!/^\d+$/.test(value)) throw new Error(`${name}: want a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
};
const list = (value: string, previous: string[] = []): string[] => [...previous, ...value.split(',').map((v) => v.trim()).filter(Boolean)];
const repeat = (value: string, previous: string[] = []): string[] => [...previous, value];

interface GenerateOptions {
  out: string;
  seedUrl?: string[];
  seeds?: string;
  random?: number;
  levelFile?: string;
  levels?: string[];
  variants?: string[];
  legsPerLevel?: number;
  seed?: number;
  modelSteps?: string[];
  reference?: string;
  quiet?: boolean;
  format?: string;
}

export function registerLegsCommands(program: Command, services: CliServices): void {
  const legs = program.command('legs').description('make fresh AAR legs');
  legs
    .command('generate')
    .argument('<config>', 'a generation config (YAML), e.g. configs/generate-example.yaml')
    .requiredOption('--out <dir>', 'where legs/, store/, report.json and report.md go (a new folder)')
    .option('--seed-url <url>', 'a seed article (repeatable; replaces the config\'s seeds)', repeat)
    .option('--seeds <file>', 'a file of seed URLs, one a line')
    .option('--random <n>', "seeds from MediaWiki's random API: candidates tried per leg", integer('--random'))
    .option('--level-file <yaml>', 'levels written out (one, or levels: [...]) instead of the config\'s')
    .option('--levels <names>', 'levels by name, comma-separated', list)
    .option('--variants <names>', 'linear, dag (comma-separated)', list)
    .option('--legs-per-level <n>', 'legs wanted per variant and level', integer('--legs-per-level'))
    .option('--seed <n>', 'the base of every random choice', integer('--seed'))
    .option('--model-steps <steps>', 'the steps that ask the model (plan, extract, verbalize, roundtrip; comma-separated), or none', list)
    .option('--reference <path>', "legs to measure Jaccard similarity against, or none (default: the config's reference, else the released data when found)")
    .option('--format <format>', 'what to print at the end: text or json (the report)', 'text')
    .option('--quiet', 'no line per attempt')
    .description("run the paper's eight-step pipeline (crawl, plan, build, pre-validate, link, augment, execute, verbalize) and write new legs, the tool answers they need as a store, and a report")
    .action(async (config: string, o: GenerateOptions) => {
      if (o.format !== 'text' && o.format !== 'json') throw new Error(`--format: want text or json, got ${JSON.stringify(o.format)}`);
      const { runGenerate } = await import('./command.js');
      const released = existsSync(aarDataDir()) ? aarDataDir() : undefined;
      const log = o.quiet || o.format === 'json' ? () => {} : (line: string) => void process.stderr.write(`${line}\n`);
      const report = await runGenerate(config, o.out, { seedUrl: o.seedUrl, seeds: o.seeds, random: o.random, levelFile: o.levelFile, levels: o.levels, variants: o.variants, legsPerLevel: o.legsPerLevel, seed: o.seed, modelSteps: o.modelSteps, reference: o.reference, released }, services, log);
      if (o.format === 'json') process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      else {
        const { reportMarkdown } = await import('./report-files.js');
        process.stdout.write(reportMarkdown(report));
        process.stdout.write(`\nlegs in ${o.out}/legs, their tool answers in ${o.out}/store (use as --tools-store), report in ${o.out}/report.md\n`);
      }
      const short = report.slots.filter((s) => s.made < s.wanted);
      if (short.length) {
        process.stderr.write(`aar: ${short.map((s) => `${s.variant}/${s.level} ${s.made} of ${s.wanted}`).join(', ')} legs made (see the report's reasons)\n`);
        process.exitCode = 1;
      }
    });
}

export function registerAuditCommand(tasks: Command): void {
  addFilterOptions(tasks.command('audit').argument('[paths...]', 'leg files or folders'))
    .description("check the six invariants of the AAR paper's section 4.2 on legs, per invariant and per leg (exit 1 when a leg fails one)")
    .option('--tools-store <dir>', 'a store to dry-run every chain and look up every page in (a generation run\'s store/, a recorded store)')
    .option('--format <format>', 'text or json', 'text')
    .option('--notes', 'also list the notes (what was not checked, and why)')
    .action(async (paths: string[], flags: FilterFlags & { toolsStore?: string; format: string; notes?: boolean }) => {
      if (flags.format !== 'text' && flags.format !== 'json') throw new Error(`--format: want text or json, got ${JSON.stringify(flags.format)}`);
      const { loadLegs } = await import('../load.js');
      const { filterLegs } = await import('../filter.js');
      const { formatProblem } = await import('../../problems.js');
      const { auditLegs, formatAudit } = await import('../audit/audit.js');
      if (!paths.length) throw new Error('tasks audit: give leg files or folders');
      const { legs, problems } = await loadLegs(paths);
      for (const p of problems) process.stderr.write(`${formatProblem(p)}\n`);
      const chosen = filterLegs(legs, await filterFromFlags(flags));
      let tools;
      if (flags.toolsStore) {
        if (!existsSync(flags.toolsStore)) throw new Error(`--tools-store: ${flags.toolsStore} does not exist`);
        const { ToolService } = await import('../../../tools/service.js');
        const { ResponseStore } = await import('../../../tools/store/store.js');
        tools = new ToolService({ mode: 'replay', store: new ResponseStore(flags.toolsStore) });
      }
      const report = await auditLegs(chosen, tools, flags.toolsStore ?? null);
      process.stdout.write(flags.format === 'json' ? `${JSON.stringify(report, null, 2)}\n` : `${formatAudit(report, { notes: flags.notes })}\n`);
      if (report.failing || problems.length) process.exitCode = 1;
    });
}
