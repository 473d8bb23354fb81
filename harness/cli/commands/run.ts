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
    });

  addConfigFlags(
    program
      .command('plan')
      .argument('[config]', `a job config (YAML); flags override its keys (as for aar run)`)
      .description('what `aar run` would do, without doing it: trials to run and done, images to build, keys, estimated tokens and cost'),
  ).action(async (configPath: string | undefined, flags: Record<string, unknown>) => printPlan(await loadConfigOf(configPath, flags)));

  program
    .command('cleanup')
    .description('remove containers left by killed runs (all of AAR Harness, or one job) and half-written trial folders')
    .option('--job <dir>', 'only this job folder')
    .option('--environment <name>', 'docker (containers) or swarm (services and networks)', 'docker')
    .action(async (flags: { job?: string; environment: string }) => {
      const { environmentProvider } = await import('../../environments/registry.js');
      const { JOB_LABEL, jobKeyOf } = await import('../../jobs/trial.js');
      const { clearPartialTrials } = await import('../../../trial/folder.js');
      const environment = environmentProvider(flags.environment);
      await environment.check();
      const labels: Record<string, string> = flags.job
        ? { [JOB_LABEL]: jobKeyOf(flags.job) }
        : { 'aar-harness': '1' };
      const removed = await environment.removeByLabels(labels);
      if (flags.job) clearPartialTrials(flags.job);
      process.stdout.write(`removed ${removed} containers${flags.job ? ` of ${flags.job}, and its half-written trial folders` : ''}\n`);
    });
}
