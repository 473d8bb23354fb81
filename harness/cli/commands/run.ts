import type { Command } from 'commander';

export function registerRunCommands(program: Command): void {
  program
    .command('run')
    .argument('[config]', 'a job config (YAML)', 'configs/default.yaml')
    .description('run a job: every agent x leg x attempt in its own container, then print the report')
    .option('--progress <display>', 'auto, bar, lines or quiet', 'auto')
    .option('--allow-config-change', 'resume a job folder even though its configuration changed')
    .option('--no-report', 'do not print the report at the end')
    .action(async (configPath: string, flags: { progress: string; allowConfigChange?: boolean; report: boolean }) => {
      const { runJob } = await import('../../jobs/job.js');
      const { modelHandlerFor } = await import('../../gateway/models/handler.js');
      const summary = await runJob({ configPath, progress: flags.progress, allowConfigChange: flags.allowConfigChange, models: modelHandlerFor });
      if (flags.report) {
        const { loadJobResults } = await import('../../../verifier/results.js');
        const { aggregate } = await import('../../../verifier/aggregate.js');
        const { toMarkdown } = await import('../../../verifier/report.js');
        process.stdout.write(toMarkdown(aggregate(loadJobResults(summary.jobDir))));
      }
      process.stdout.write(
        `${summary.jobDir}: ${summary.ran} trials run, ${summary.skipped} already done, ${summary.infraErrors} infrastructure errors` +
          (summary.interrupted ? '; interrupted (run again to resume)' : '') + '\n',
      );
      if (summary.interrupted) process.exitCode = 130;
    });

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
