import type { Command } from 'commander';
import type { LoadedConfig } from '../../config/load.js';
import { addConfigFlags, DEFAULT_CONFIG, loadConfigOf } from './run-options.js';

async function printPlan(loaded: LoadedConfig): Promise<void> {
  const { previewJob } = await import('../../jobs/preview.js');
  const { formatPreview } = await import('../../jobs/preview-text.js');
  process.stdout.write(formatPreview(await previewJob(loaded)));
}

export function registerRunCommands(program: Command): void {
  addConfigFlags(
    program
      .command('run')
      .argument('[config]', `a job config (YAML); flags override its keys. Default: ${DEFAULT_CONFIG}, or the flags alone when they name --agent or --path`)
      .description('run a job: every agent x leg x attempt in its own container, then print the report'),
  )
    .option('--dry-run', 'print the plan (as `aar plan`) and run nothing')
    .option('--progress <display>', 'auto, bar, lines or quiet', 'auto')
    .option('--allow-config-change', 'resume a job folder even though its configuration changed')
    .option('--no-report', 'do not print the report at the end')
    .action(async (configPath: string | undefined, flags: Record<string, unknown> & { dryRun?: boolean; progress: string; allowConfigChange?: boolean; report: boolean }) => {
      const { dryRun, progress, allowConfigChange, report, ...configFlags } = flags;
      const loaded = await loadConfigOf(configPath, configFlags);
      if (dryRun) return printPlan(loaded);
      const started = Date.now();
      const { runJob } = await import('../../jobs/job.js');
      const { modelHandlerFor } = await import('../../gateway/models/handler.js');
      const { formatDuration } = await import('../../jobs/reporters.js');
      const summary = await runJob({ config: loaded, progress, allowConfigChange, models: modelHandlerFor });
      if (report) {
        const { loadJobResults } = await import('../../../verifier/results.js');
        const { aggregate } = await import('../../../verifier/aggregate.js');
        const { toMarkdown } = await import('../../../verifier/report.js');
        process.stdout.write(toMarkdown(aggregate(loadJobResults(summary.jobDir))));
      }
      process.stdout.write(
        `${summary.jobDir}: ${summary.ran} trials run, ${summary.skipped} already done, ${summary.infraErrors} infrastructure errors, ` +
          `${formatDuration((Date.now() - started) / 1000)} elapsed` +
          (summary.interrupted ? '; interrupted (run again to resume)' : '') + '\n',
      );
      if (summary.interrupted) process.exitCode = 130;
      else if (summary.infraErrors) {
        process.stderr.write(`aar: ${summary.infraErrors} trials ended as infrastructure errors (not scored; run again to retry them)\n`);
        process.exitCode = 1;
      }
    });

  addConfigFlags(
    program
      .command('plan')
      .argument('[config]', `a job config (YAML); flags override its keys (as for aar run)`)
      .description('what `aar run` would do, without doing it: trials to run and done, images to build, keys, estimated tokens and cost'),
  ).action(async (configPath: string | undefined, flags: Record<string, unknown>) => printPlan(await loadConfigOf(configPath, flags)));
}
