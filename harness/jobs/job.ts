import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import PQueue from 'p-queue';
import { InputError } from '../../tasks/problems.js';
import { withRetries } from '../../tools/retry.js';
import { clearPartialTrials } from '../../trial/folder.js';
import { loadJobConfig, type LoadedConfig } from '../config/load.js';
import { agentId, type JobConfig } from '../config/schema.js';
import { GatewayServer, type ModelHandler } from '../gateway/server.js';
import { checkAgents } from './agent-check.js';
import { chooseConcurrency } from './concurrency.js';
import { changedLegs, finishedTrials } from './growth.js';
import { ensureJobImages, imageSettings } from './image-plan.js';
import { JobEnvironment } from './job-environment.js';
import { checkJobFile, JOB_FILE, refuseFileAsFolder, refuseForeignFolder, removeEmptyFolder } from './job-file.js';
import { loadJobTasks } from './job-tasks.js';
import { jobToolService, refuseMissingToolKeys } from './job-tools.js';
import { lockJobDir, type JobLock } from './lock.js';
import { GATEWAY_SOCKET_NAME, makeSocketDir, removeStaleSocketDirs } from './socket-dir.js';
import { EngineGone, EngineLost, EngineWatch } from './engine-wait.js';
import { HostWriteFailure, isHostWriteError } from './write-errors.js';
import { planTrials, type TrialPlan } from './plan.js';
import { checkStoredWorld } from './world-coverage.js';
import { jobReporter, type JobReporter } from './reporters.js';
import { jobRunning } from './running.js';
import { InfraError, runTrialOnce, TrialAborted, writeInfraFailure, type TrialOutcome, type TrialRunContext } from './trial/index.js';

export interface RunJobOptions {
  /** A config file, or `config`: one already loaded (e.g. flags over a file). */
  configPath?: string;
  config?: LoadedConfig;
  /** Progress display: auto, bar, lines, quiet. */
  progress?: string;
  reporter?: JobReporter;
  /** Run even if the job folder holds trials of a different configuration. */
  allowConfigChange?: boolean;
  /** Replay: run legs whose golden calls the store cannot answer (their calls fail); otherwise refused before any trial. */
  allowMissing?: boolean;
  /** Model traffic handler (the model gateway), given the config and a resolver of paths relative to it. */
  models?: (config: JobConfig, resolve: (p: string) => string) => (ModelHandler & { close?(): Promise<void> }) | undefined;
  /** Stops the job as SIGINT does. */
  signal?: AbortSignal;
  /** Delay before an infrastructure retry (default about 2 s, doubling, with jitter). */
  retryDelayMs?: number;
}

export interface JobSummary {
  jobDir: string;
  planned: number;
  skipped: number;
  ran: number;
  infraErrors: number;
  interrupted: boolean;
  /** Containers of an earlier, killed run of this job that were removed at start. */
  leftoversRemoved: number;
}

/**
 * Runs a job: expands the config into trials, skips finished ones (resume), builds images, starts the
 * gateway, and runs the rest with bounded concurrency, retrying infrastructure errors. SIGINT/SIGTERM (or
 * `signal`) stop it cleanly: no new trials, running containers removed, the job resumable. The job folder
 * is locked while it runs (a second run on it stops with JobLocked); a failed write under it (a full disk)
 * stops the job the same clean way and throws one line. An engine that goes away is waited for up to
 * `engine_wait_s` (engine-wait.ts): the job goes on when it answers again, or stops that same way.
 */
export async function runJob(options: RunJobOptions): Promise<JobSummary> {
  let lock: JobLock | undefined;
  let made: string | undefined;
  const ended = jobRunning();
  try {
    return await runJobInFolder(options, (jobDir) => {
      if (!existsSync(jobDir)) made = jobDir;
      mkdirSync(jobDir, { recursive: true });
      lock = lockJobDir(jobDir);
      if (lock.tookOver) (options.reporter ?? { note: (l: string) => process.stderr.write(l + '\n') }).note(`took over the lock of process ${lock.tookOver.pid}, which is gone`);
    });
  } finally {
    lock?.release();
    // A run refused before its first trial leaves no job folder behind it made (a later run would take it for a job).
    if (made && !existsSync(path.join(made, JOB_FILE))) removeEmptyFolder(made);
    ended();
  }
}

async function runJobInFolder(options: RunJobOptions, takeLock: (jobDir: string) => void): Promise<JobSummary> {
  const loaded = options.config ?? loadJobConfig(options.configPath ?? 'configs/default.yaml');
  const { config } = loaded;
  const { family, tasks } = await loadJobTasks(loaded);
  checkAgents(loaded);
  refuseMissingToolKeys(loaded, family.tools);
  const worldNote = await checkStoredWorld(loaded, family, tasks, options.allowMissing ?? false);
  const plans = planTrials(config, tasks);

  const jobsDir = loaded.resolve(config.output);
  const jobDir = path.join(jobsDir, config.name);
  refuseFileAsFolder(loaded, jobsDir, jobDir);
  refuseForeignFolder(jobDir, loaded.file);

  const environment = await JobEnvironment.open(config, jobDir);
  takeLock(jobDir);
  const done = finishedTrials(jobDir);
  const jobFile = checkJobFile(jobDir, loaded, options.allowConfigChange ?? false, changedLegs(plans, done));
  const leftoversRemoved = await environment.removeLeftovers();
  clearPartialTrials(jobDir);

  const toRun = plans.filter((p) => !done.has(p.trialId));
  const reporter = options.reporter ?? jobReporter(options.progress ?? 'auto');
  const summary: JobSummary = { jobDir, planned: plans.length, skipped: plans.length - toRun.length, ran: 0, infraErrors: 0, interrupted: false, leftoversRemoved };
  if (leftoversRemoved) reporter.note(`removed ${leftoversRemoved} containers left by an earlier run of this job`);
  if (worldNote) reporter.note(worldNote);
  if (!toRun.length) {
    jobFile.write();
    reporter.note(`job ${config.name}: all ${plans.length} trials are done`);
    return summary;
  }

  const instructionTemplate = config.instruction_template ? loaded.resolve(config.instruction_template) : undefined;
  // Rendered once before any container starts: a template that cannot be read fails the job here, by name.
  try {
    family.renderInstruction(toRun[0].task, { templatePath: instructionTemplate, stepBudget: family.stepBudget(toRun[0].task), attempt: toRun[0].attempt });
  } catch (error) {
    throw new InputError([{ file: loaded.file, path: 'instruction_template', message: (error as Error).message }]);
  }

  const images = await ensureJobImages(toRun, imageSettings(config, loaded), (line) => reporter.note(line));
  // Written once nothing is left to refuse the run: a refused run leaves no job.json (or the old one as it was).
  jobFile.write();

  const models = options.models?.(config, loaded.resolve);
  const gateway = new GatewayServer({ tools: jobToolService(loaded, family.tools), models });
  await removeStaleSocketDirs();
  const socketDir = makeSocketDir();
  await gateway.listenSocket(path.join(socketDir, GATEWAY_SOCKET_NAME));

  const abort = new AbortController();
  const ctx: TrialRunContext = {
    jobDir,
    jobName: config.name,
    jobKey: environment.jobKey,
    config,
    family,
    environment: environment.provider,
    gateway,
    gatewaySocketDir: socketDir,
    gatewaySocketName: GATEWAY_SOCKET_NAME,
    images,
    instructionTemplate,
    signal: abort.signal,
    running: environment.running,
    retire: (sandbox) => environment.retire(sandbox),
  };
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
  const onSignal = (): void => stop();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  options.signal?.addEventListener('abort', stop);

  reporter.start({ job: config.name, planned: plans.length, skipped: summary.skipped, toRun: toRun.length, successLabel: family.progress.label, agents: config.agents.map(agentId) });
  try {
    for (const plan of toRun) {
      void queue.add(async () => {
        if (abort.signal.aborted) return;
        let outcome: TrialOutcome | null;
        try {
          outcome = await runWithRetries(ctx, plan, reporter, options.retryDelayMs ?? 2000, engine);
        } catch (error) {
          // A write the host refused (full disk, job folder gone) or a fault of the harness itself: stop it all.
          halted ??= error as Error;
          stop();
          return;
        }
        if (!outcome) return;
        summary.ran++;
        if (outcome.record.status === 'infra_error') summary.infraErrors++;
      });
    }
    await queue.onIdle();
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    options.signal?.removeEventListener('abort', stop);
    await environment.close((line) => reporter.note(line));
    await gateway.close();
    await models?.close?.().catch((error: Error) => reporter.note(`local model: ${error.message}`));
    rmSync(socketDir, { recursive: true, force: true });
    // No trial is being written any more: what .partial holds is left over (and an empty .partial is clutter).
    clearPartialTrials(jobDir);
    reporter.finish();
  }
  if (halted instanceof EngineGone) {
    throw new Error(`${halted.message}; finished trials kept, the lost ones left no folder: run again to resume once it answers (that run removes this one's containers)`);
  }
  if (halted) {
    const why = halted instanceof HostWriteFailure ? `cannot write under ${jobDir}: ${halted.message}` : `stopped by an error of the harness: ${halted.message.split('\n')[0]}`;
    throw new Error(`${why}; running containers removed, finished trials kept: run again to resume${halted instanceof HostWriteFailure ? ' once the disk has room' : ''}`);
  }
  return summary;
}

type TrialTry = { outcome: TrialOutcome } | { error: Error };

/**
 * Runs a trial, again after an infrastructure error (the policy of tools/retry.ts); null when the job was
 * stopped. An attempt lost because the engine went away uses no retry: the trial waits for the engine
 * (EngineWatch) and runs again from the start once it answers.
 */
async function runWithRetries(ctx: TrialRunContext, plan: TrialPlan, reporter: JobReporter, delayMs: number, engine: EngineWatch): Promise<TrialOutcome | null> {
  const started = Date.now();
  reporter.trialStarted(plan.trialId);
  // The errors retried so far, recorded in the trial's outcome.
  const retried: string[] = [];
  let result: TrialTry;
  let attempts: number;
  for (;;) {
    if (!(await engine.ready())) return null;
    ({ result, attempts } = await withRetries<TrialTry>(
      async () => {
        try {
          return { outcome: await runTrialOnce(ctx, plan, { count: retried.length, errors: [...retried] }) };
        } catch (error) {
          if (isHostWriteError(error)) return { error: new HostWriteFailure(error) };
          if (error instanceof InfraError && !ctx.signal.aborted && (await engine.lost())) return { error: new EngineLost(error.message) };
          return { error: error as Error };
        }
      },
      (r) => ('error' in r && r.error instanceof InfraError && !(r.error instanceof EngineLost) && !ctx.signal.aborted ? { reason: r.error.message } : undefined),
      // A trial's failure carries no Retry-After: the backoff alone sets the wait.
      { maxAttempts: ctx.config.infra_retries + 1, backoffBaseMs: delayMs, backoffMaxMs: Math.max(delayMs, 60_000), retryAfterMaxMs: 0 },
      {
        signal: ctx.signal,
        onRetry: (e) => {
          if (!('error' in e.result)) return;
          retried.push(e.result.error.message.split('\n')[0]);
          reporter.retrying(plan.trialId, e.attempt, e.result.error);
        },
      },
    ));
    if (!('error' in result && result.error instanceof EngineLost) || ctx.signal.aborted) break;
    reporter.note(`${plan.trialId}: lost with the Docker engine (${result.error.message.split('\n')[0]}); not scored, runs again once the engine answers`);
  }
  if ('outcome' in result) {
    reporter.trialFinished(result.outcome, attempts - 1);
    return result.outcome;
  }
  if (result.error instanceof TrialAborted || ctx.signal.aborted) return null;
  if (result.error instanceof HostWriteFailure) throw result.error;
  let outcome: TrialOutcome;
  try {
    outcome = writeInfraFailure(ctx, plan, result.error, started, { count: retried.length, errors: retried });
  } catch (error) {
    throw isHostWriteError(error) ? new HostWriteFailure(error) : error;
  }
  reporter.trialFinished(outcome, attempts - 1);
  return outcome;
}

