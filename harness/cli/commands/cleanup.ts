import type { Command } from 'commander';
import { environmentLeftovers } from '../../environments/registry.js';

export function registerCleanupCommand(program: Command): void {
  program
    .command('cleanup')
    .description("remove containers left by killed runs of this checkout's jobs (or of one job, or --all), and a job's half-written trial folders and its dead run's lock; running jobs are left alone")
    .option('--job <dir>', 'only this job folder')
    .option('--all', "every AAR container on the engine, other checkouts' and users' too (each is listed)")
    .option('--environment <name>', environmentLeftovers(), 'docker')
    .action(async (flags: { job?: string; all?: boolean; environment: string }) => {
      if (flags.job && flags.all) throw new Error('--job and --all: give one of them');
      const { environmentProvider } = await import('../../environments/registry.js');
      const { cleanupContainers } = await import('../../jobs/cleanup.js');
      const environment = await environmentProvider(flags.environment);
      await environment.check();
      const result = await cleanupContainers(environment, { job: flags.job, all: flags.all });
      for (const r of result.running) {
        process.stderr.write(`aar: kept ${r.containers} containers of ${r.job}: it is running (process ${r.holder.pid} on ${r.holder.host})\n`);
      }
      if (flags.all) {
        for (const r of result.removed) {
          for (const c of r.containers) process.stdout.write(`removed ${c.id.slice(0, 12)} ${c.state.padEnd(8)} ${r.job} ${c.labels['aar.trial'] ?? ''}\n`);
        }
      }
      const count = result.removed.reduce((n, r) => n + r.count, 0);
      const where = flags.job ? ` of ${flags.job}, and its half-written trial folders and stale lock, if any` : flags.all ? ' (all of AAR Harness on this engine)' : " of this checkout's jobs (--all: every AAR container)";
      process.stdout.write(`removed ${count} containers${where}\n`);
      if (flags.job && result.running.length) process.exitCode = 1;
    });
}
