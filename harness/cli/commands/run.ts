import type { Command } from 'commander';
import type { LoadedConfig } from '../../config/load.js';
import { addConfigFlags, DEFAULT_CONFIG, loadConfigOf } from './run-options.js';
import { plural } from '../../../common/words.js';

const FORMATS = ['text', 'json'] as const;
type Format = (typeof FORMATS)[number];

function formatOf(flag: string): Format {
  if (!(FORMATS as readonly string[]).includes(flag)) throw new Error(`--format: expected one of ${FORMATS.join(', ')}, got ${flag}`);
  return flag as Format;
}

/** The plan (harness/plan/), as `aar plan` prints it. */
async function printPlan(loaded: LoadedConfig, format: Format, allowMissing = false): Promise<void> {
  await (await import('../../plan/print.js')).printPlan(loaded, format, allowMissing);
}

/** The report's rows (the library's aggregate); in JSON they are as `aar report JOB --format json` prints them. */
async function reportRows(jobDir: string) {
  const { loadJobResults } = await import('../../../verifier/results.js');
  const { aggregate } = await import('../../../verifier/aggregate.js');
  return aggregate(loadJobResults(jobDir));
}

export function registerRunCommands(program: Command): void {
  addConfigFlags(
    program
      .command('run')
      .argument('[config]', `a job config (YAML); flags override its keys. Default: ${DEFAULT_CONFIG}, or the flags alone when they name --agent or --path`)
      .description('run a job: every agent x leg x attempt in its own container, then print the report'),
  )
    .option('--dry-run', 'print the plan (as `aar plan`) and run nothing')
    .option('--progress <display>', 'bar (one live line: done, running, failed, success rate, ETA), lines (a line per finished trial, for logs), quiet, or auto (bar on a terminal, else lines)', 'auto')
    .option('--allow-config-change', 'resume a job folder even though its configuration changed')
    .option('--allow-missing', 'replay: run legs whose golden calls the store cannot answer (their calls fail)')
    .option('--no-report', 'do not print the report at the end')
    .option('--format <format>', 'text, or json: the summary (and report rows) as one JSON object on standard output', 'text')
    .action(async (configPath: string | undefined, flags: Record<string, unknown> & { dryRun?: boolean; progress: string; allowConfigChange?: boolean; allowMissing?: boolean; report: boolean; format: string }) => {
      const { dryRun, progress, allowConfigChange, allowMissing, report, format: formatFlag, ...configFlags } = flags;
      const format = formatOf(formatFlag);
      const loaded = await loadConfigOf(configPath, configFlags);
      if (dryRun) return printPlan(loaded, format, allowMissing);
      const started = Date.now();
      const { runJob } = await import('../../jobs/job.js');
      const { modelHandlerFor } = await import('../../gateway/models/handler.js');
      const { formatDuration } = await import('../../jobs/reporters.js');
      const summary = await runJob({ config: loaded, progress, allowConfigChange, allowMissing, models: modelHandlerFor });
      const rows = report ? await reportRows(summary.jobDir) : null;
      const elapsedS = (Date.now() - started) / 1000;
      const { toJson, toMarkdown } = await import('../../../verifier/report.js');
      if (format === 'json') {
        const reportJson = rows ? JSON.parse(toJson(rows)) : null;
        process.stdout.write(JSON.stringify({ summary, elapsed_s: Math.round(elapsedS * 10) / 10, report: reportJson }, null, 2) + '\n');
      } else {
        if (rows) process.stdout.write(toMarkdown(rows));
        process.stdout.write(
          `${summary.jobDir}: ${plural(summary.ran, 'trial')} run, ${summary.skipped} already done, ${plural(summary.infraErrors, 'infrastructure error')}, ` +
            `${formatDuration(elapsedS)} elapsed` +
            (summary.interrupted ? '; interrupted (run again to resume)' : '') + '\n',
        );
      }
      if (summary.interrupted) process.exitCode = 130;
      else if (summary.infraErrors) {
        process.stderr.write(`aar: ${plural(summary.infraErrors, 'trial')} ended as ${summary.infraErrors === 1 ? 'an infrastructure error' : 'infrastructure errors'} (not scored; run again to retry them)\n`);
        process.exitCode = 1;
      }
    });

  addConfigFlags(
    program
      .command('plan')
      .argument('[config]', `a job config (YAML); flags override its keys (as for aar run)`)
      .description('what `aar run` would do, without doing it: trials to run and done, images to build, keys, estimated tokens and cost'),
  )
    .option('--format <format>', 'text, or json: the library\'s JobPreview as one JSON object', 'text')
    .option('--allow-missing', 'replay: legs whose golden calls the store cannot answer would run anyway')
    .action(async (configPath: string | undefined, flags: Record<string, unknown> & { format: string; allowMissing?: boolean }) => {
      const { format, allowMissing, ...configFlags } = flags;
      const chosen = formatOf(format);
      await printPlan(await loadConfigOf(configPath, configFlags), chosen, allowMissing);
    });
}
