import PQueue from 'p-queue';
import { agentId } from '../../config/schema.js';
import { chooseConcurrency } from '../concurrency.js';
import { EngineWatch } from '../engine-wait.js';
import type { JobReporter } from '../reporters.js';
import { GATEWAY_SOCKET_NAME } from '../socket-dir.js';
import type { TrialRunContext } from '../trial/index.js';
import type { OpenedJob } from './open.js';
import type { JobSummary, RunJobOptions } from './options.js';
import type { ProvisionedJob } from './provision.js';
import { runWithRetries } from './retries.js';

/**
 * The job's third phase: the trials to run, with bounded concurrency, each retried after an infrastructure
 * error. SIGINT/SIGTERM, `options.signal`, an engine gone longer than `engine_wait_s`, or an error that
 * stops it all (a refused write, a fault of the harness) stop it: no new trials, running sandboxes killed.
 * Counts into `summary`; returns the error that stopped the job, if one did.
 */
export async function runTrials(job: OpenedJob, provisioned: ProvisionedJob, summary: JobSummary, reporter: JobReporter, options: RunJobOptions): Promise<Error | undefined> {
  const { config } = job.loaded;
  const { environment } = job;
  const abort = new AbortController();
  const ctx = trialContext(job, provisioned, abort.signal);
  const queue = new PQueue({ concurrency: chooseConcurrency(config).value });
  let halted: Error | undefined;
  const stop = (): void => {
    if (abort.signal.aborted) return;
    summary.interrupted = true;
    abort.abort();
    queue.clear();
    reporter.note(`stopping: no new trials; removing ${environment.running.size} running containers (the job can be resumed)`);
    environment.killRunning();
  };
  // The engine going away: trials wait for it up to engine_wait_s, then the job stops as on SIGTERM.
  const engine = new EngineWatch(
    environment.provider.answers?.bind(environment.provider),
    config.engine_wait_s * 1000,
    abort.signal,
    (line) => reporter.note(line),
    (gone) => {
      halted ??= gone;
      stop();
    },
    environment.provider.engineLabel,
  );
  const unhook = stopOnSignals(stop, options.signal);

  reporter.start({ job: config.name, planned: job.plans.length, skipped: summary.skipped, toRun: job.toRun.length, successLabel: job.family.progress.label, agents: config.agents.map(agentId) });
  try {
    for (const plan of job.toRun) {
      void queue.add(async () => {
        if (abort.signal.aborted) return;
        try {
          const outcome = await runWithRetries(ctx, plan, reporter, options.retryDelayMs ?? 2000, engine);
          if (!outcome) return;
          summary.ran++;
          if (outcome.record.status === 'infra_error') summary.infraErrors++;
        } catch (error) {
          // A write the host refused (full disk, job folder gone) or a fault of the harness itself: stop it all.
          halted ??= error as Error;
          stop();
        }
      });
    }
    await queue.onIdle();
  } finally {
    unhook();
  }
  return halted;
}

/** Everything a trial needs from its job. */
function trialContext(job: OpenedJob, provisioned: ProvisionedJob, signal: AbortSignal): TrialRunContext {
  const { config } = job.loaded;
  const { environment } = job;
  return {
    jobDir: job.jobDir,
    jobName: config.name,
    jobKey: environment.jobKey,
    config,
    family: job.family,
    environment: environment.provider,
    gateway: provisioned.gateway,
    gatewaySocketDir: provisioned.socketDir,
    gatewaySocketName: GATEWAY_SOCKET_NAME,
    images: provisioned.images,
    instructionTemplate: provisioned.instructionTemplate,
    signal,
    running: environment.running,
    retire: (sandbox) => environment.retire(sandbox),
  };
}

/** SIGINT, SIGTERM and `signal` call `stop` until the returned function is called. */
function stopOnSignals(stop: () => void, signal: AbortSignal | undefined): () => void {
  const onSignal = (): void => stop();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  signal?.addEventListener('abort', stop);
  return () => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    signal?.removeEventListener('abort', stop);
  };
}
