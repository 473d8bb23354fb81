import { createHash } from 'node:crypto';
import { accessSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import path from 'node:path';
import type { TaskFamily } from '../../tasks/family.js';
import { PACKAGE_ROOT } from '../../paths.js';
import { DEFAULT_FAMILY } from '../../tasks/registry.js';
import { scoreTrialDir } from '../../verifier/results.js';
import { commitStaging, createStaging, TRIAL_FILES, TRIAL_FORMAT, writeFiles } from '../../trial/folder.js';
import { sealTrialFolder } from '../../trial/file-hashes.js';
import { TrialRecordSchema, type TrialRecord, type TrialStatus } from '../../trial/record.js';
import { mergeRunSources, recordedRunOf } from '../../trial/run-facts.js';
import type { JobConfig } from '../config/schema.js';
import { ANSWER_LIMIT_BYTES, cutMarker, LOG_LIMIT_BYTES, type FileCut } from '../../trial/copy-limits.js';
import type { EnvironmentProvider, TrialEnvironment, TrialWork } from '../environments/types.js';
import { takeLogFailure } from '../gateway/log-append.js';
import type { GatewayServer } from '../gateway/server.js';
import { HARNESS_VERSION } from '../version.js';
import { acceptResult, RefusedList, writeCollectedDirs } from './collected.js';
import type { TrialPlan } from './plan.js';
import { HostWriteFailure, isHostWriteError, LogFileSink } from './write-errors.js';

/** A failure of the harness or its infrastructure (not of the agent): retried, reported apart, never scored. */
export class InfraError extends Error {}
/** The job was interrupted while this trial ran: it leaves no folder and runs again on resume. */
export class TrialAborted extends Error {}

/** Everything a trial needs from its job. */
export interface TrialRunContext {
  jobDir: string;
  jobName: string;
  /** Label value naming this job's containers, so a killed run's leftovers can be found. */
  jobKey: string;
  config: JobConfig;
  family: TaskFamily;
  environment: EnvironmentProvider;
  gateway: GatewayServer;
  gatewaySocketDir: string;
  gatewaySocketName: string;
  /** Image tag per agent id. */
  images: Map<string, string>;
  instructionTemplate?: string;
  signal: AbortSignal;
  /** Sandboxes of running trials, so an interrupted job can stop them. */
  running: Set<TrialEnvironment>;
}

export interface TrialOutcome {
  plan: TrialPlan;
  record: TrialRecord;
  score: object | null;
  /** The family's success figure (0..1) and verdict of a scored trial, for progress displays. */
  shown: { success: number; verdict: string } | null;
}

/** The port the gateway answers on inside every container. */
export const GATEWAY_PORT = 8900;
export const JOB_LABEL = 'aar.job_key';
/** The checkout (package root) whose harness started a container, so `aar cleanup` leaves other checkouts' alone. */
export const CHECKOUT_LABEL = 'aar.checkout';
/** The job folder of a container, so `aar cleanup` can tell whether its job still runs (holds the lock). */
export const JOB_DIR_LABEL = 'aar.job_dir';

/** The labels every container of a job carries. */
export const harnessLabels = (jobDir: string, jobKey: string): Record<string, string> => ({
  'aar-harness': '1',
  [JOB_LABEL]: jobKey,
  [CHECKOUT_LABEL]: PACKAGE_ROOT,
  [JOB_DIR_LABEL]: path.resolve(jobDir),
});

const iso = (ms: number): string => new Date(ms).toISOString();

/** The label value naming a job's containers: derived from its folder, so a rerun finds a killed run's leftovers. */
export function jobKeyOf(jobDir: string): string {
  return createHash('sha256').update(path.resolve(jobDir)).digest('hex').slice(0, 16);
}

/** The infrastructure errors a trial met before this attempt of it (each was retried). */
export interface InfraRetries {
  count: number;
  /** Each one's first line, oldest first. */
  errors: string[];
}

const NO_RETRIES: InfraRetries = { count: 0, errors: [] };

/** trial.json's account of the infrastructure retries a trial took. */
const retryFields = (retries: InfraRetries) => ({ infra_retries: retries.count, ...(retries.errors.length ? { infra_retry_errors: retries.errors } : {}) });

/** The fields of trial.json that say what ran, the same for every outcome. */
function recordIdentity(ctx: TrialRunContext, plan: TrialPlan) {
  return {
    format: TRIAL_FORMAT,
    // AAR's records carry no family, as before families existed.
    ...(ctx.family.name === DEFAULT_FAMILY ? {} : { family: ctx.family.name }),
    trial_id: plan.trialId,
    job: ctx.jobName,
    agent: { id: plan.agentId, name: plan.agent.name, model: plan.agent.model ?? null, version: plan.agent.version ?? null },
    leg: { ...ctx.family.describe(plan.task), sha256: createHash('sha256').update(plan.task.source).digest('hex') },
    attempt: plan.attempt,
    seed: plan.seed,
    harness_version: HARNESS_VERSION,
  };
}

/**
 * Runs one trial once: a container up, files in, the agent under the timeout, answer and logs out, the
 * container removed, the trial scored and its folder written atomically. Throws InfraError when the
 * infrastructure fails and TrialAborted when the job is interrupted; agent failures are results.
 */
export async function runTrialOnce(ctx: TrialRunContext, plan: TrialPlan, retries: InfraRetries = NO_RETRIES): Promise<TrialOutcome> {
  const started = Date.now();
  const { config, gateway } = ctx;
  const budget = config.budget.steps === 'auto' ? ctx.family.stepBudget(plan.task) : config.budget.steps;
  const staging = createStaging(ctx.jobDir, plan.trialId);
  const agentDir = path.join(staging, TRIAL_FILES.agentDir);
  mkdirSync(agentDir);
  const toolLogPath = path.join(staging, TRIAL_FILES.toolLog);
  writeFileSync(toolLogPath, '');
  const trial = gateway.trials.register({
    trialId: plan.trialId,
    toolLogPath,
    modelLogPath: path.join(staging, TRIAL_FILES.modelLog),
    budget: { maxTurns: budget, maxTokens: config.budget.max_tokens, maxCostUsd: config.budget.max_cost_usd },
    session: ctx.family.toolSession?.(plan.task, { dir: staging, seed: plan.seed, stepBudget: budget }),
  });
  let env: TrialEnvironment | undefined;
  try {
    const instruction = ctx.family.renderInstruction(plan.task, { templatePath: ctx.instructionTemplate, stepBudget: budget, seed: plan.seed });
    const gatewayUrl = `http://127.0.0.1:${GATEWAY_PORT}`;
    const launch = await plan.adapter.launch({
      trialId: plan.trialId,
      family: ctx.family,
      task: plan.task,
      instruction,
      stepBudget: budget,
      agent: plan.agent,
      seed: plan.seed,
      gatewayUrl,
      token: trial.token,
    });
    try {
      env = await ctx.environment.start({
        image: ctx.images.get(plan.agentId)!,
        labels: { ...harnessLabels(ctx.jobDir, ctx.jobKey), 'aar.job': ctx.jobName, 'aar.trial': plan.trialId },
        env: { ...launch.env, ...plan.agent.env, AAR_TRIAL_TOKEN: trial.token, AAR_GATEWAY_URL: gatewayUrl, AAR_TOOLS: ctx.family.tools.join(',') },
        resources: { memoryMb: config.resources.memory_mb, cpus: config.resources.cpus, pids: config.resources.pids },
        gatewaySocketDir: ctx.gatewaySocketDir,
        gatewaySocketName: ctx.gatewaySocketName,
        gatewayPort: GATEWAY_PORT,
        network: config.network,
        handover: trial.handover,
      });
    } catch (error) {
      throw new InfraError(`cannot start the container: ${(error as Error).message}`);
    }
    ctx.running.add(env);
    if (ctx.signal.aborted) throw new TrialAborted('job interrupted');

    // Everything copied out is bounded (trial/copy-limits.ts); what was cut is listed in trial.json.
    const cuts: FileCut[] = [];
    const logFile = (stream: 'stdout' | 'stderr') => `${TRIAL_FILES.agentDir}/${stream}.log`;
    const cutInto = (file: string) => (cut: { size: number; kept: number }) => cuts.push({ file, size: cut.size, kept: cut.kept });
    // Where the environment sees the output as it comes (docker), the logs grow while the agent runs.
    const live = {
      stdout: new LogFileSink(path.join(agentDir, 'stdout.log'), { maxBytes: LOG_LIMIT_BYTES, onCut: cutInto(logFile('stdout')) }),
      stderr: new LogFileSink(path.join(agentDir, 'stderr.log'), { maxBytes: LOG_LIMIT_BYTES, onCut: cutInto(logFile('stderr')) }),
    };
    let streamed = false;
    const work: TrialWork = {
      files: [{ path: '/app/instruction.md', content: instruction }, ...launch.files],
      command: launch.command,
      workdir: '/app',
      timeoutMs: config.timeout_s * 1000,
      collectFiles: ['/app/answer.txt'],
      collectDirs: launch.logDirs,
      limits: { fileBytes: ANSWER_LIMIT_BYTES, logBytes: LOG_LIMIT_BYTES },
      onOutput: (stream, chunk) => {
        streamed = true;
        live[stream].write(chunk);
      },
    };
    const posted = await env
      .run(work)
      .finally(() => {
        // Closed also when the run itself fails, so no file stays open.
        live.stdout.end();
        live.stderr.end();
      });
    await Promise.all([once(live.stdout, 'finish'), once(live.stderr, 'finish')]);
    // What came out of the sandbox is its word: only what the work asked for is taken (collected.ts).
    const refused = new RefusedList();
    const result = acceptResult(work, posted, refused);
    // The agent's run time on the harness's own clock (the environment measures it), never the sandbox's report.
    const agentSeconds = result.durationMs / 1000;
    const cutOf = (where: string) => result.cuts.find((c) => c.path === where);
    if (!streamed) {
      // The output came back with the result only (a sandbox on another machine).
      for (const stream of ['stdout', 'stderr'] as const) {
        const cut = cutOf(stream);
        if (cut) cutInto(logFile(stream))(cut);
        writeFileSync(path.join(agentDir, `${stream}.log`), cut ? Buffer.concat([result[stream], Buffer.from(cutMarker(cut.size, cut.kept))]) : result[stream]);
      }
    }
    const lostWrite = live.stdout.error ?? live.stderr.error ?? takeLogFailure(toolLogPath) ?? takeLogFailure(trial.modelLogPath);
    if (lostWrite) throw lostWrite;
    // The staged folder must still be there (a removed job folder would be silently made anew, without its logs).
    accessSync(toolLogPath);
    if (ctx.signal.aborted) throw new TrialAborted('job interrupted');
    if (result.fate?.outside) throw new InfraError(`the container was ${result.fate.outside} during the agent run`);
    if (!result.timedOut && result.exitCode === null) throw new InfraError('the agent process vanished without an exit status (container died?)');

    const usage = trial.usage;
    if (plan.adapter.usesModel && usage.turns > 0 && usage.answered === 0 && usage.upstreamFailures > 0) {
      throw new InfraError(`the model never answered (${usage.upstreamFailures} failed requests after ${usage.upstreamRetries} retries; see model_log.jsonl)`);
    }
    const answer = result.files['/app/answer.txt'] ?? null;
    const answerCut = cutOf('/app/answer.txt');
    if (answerCut) cuts.push({ file: TRIAL_FILES.answer, size: answerCut.size, kept: answerCut.kept, ...(answerCut.blank ? { blank: answerCut.blank } : {}) });
    writeCollectedDirs(agentDir, result.dirs, refused);
    for (const c of result.cuts.filter((c) => c.path.startsWith('/') && c.path !== '/app/answer.txt')) {
      const dir = launch.logDirs.find((d) => c.path.startsWith(d + '/'));
      if (dir) cuts.push({ file: `${TRIAL_FILES.agentDir}/${path.basename(dir)}/${c.path.slice(dir.length + 1)}`, size: c.size, kept: c.kept });
    }
    await env.remove();
    ctx.running.delete(env);

    // A timeout the harness's clock did not see (it starts before the sandbox's) is the agent's claim: its failure.
    const claimedTimeout = result.timedOut && result.durationMs < work.timeoutMs;
    const timedOut = result.timedOut && !claimedTimeout;
    const status: TrialStatus = timedOut ? 'timed_out' : result.exitCode === 0 && !claimedTimeout ? 'completed' : 'agent_error';
    const finished = Date.now();
    const record = TrialRecordSchema.parse({
      ...recordIdentity(ctx, plan),
      status,
      error:
        claimedTimeout
          ? `the agent's result claimed a timeout after ${agentSeconds.toFixed(1)} s of the ${config.timeout_s} s limit`
          : status === 'agent_error'
          ? result.fate?.oomAtOwnLimit
            ? `out of memory: the kernel killed the agent at the trial's ${config.resources.memory_mb} MB limit (exit status ${result.exitCode})`
            : `the agent exited with status ${result.exitCode}`
          : status === 'timed_out'
            ? `killed at the ${config.timeout_s} s timeout`
            : null,
      ...(result.fate?.oomAtOwnLimit ? { oom_killed: true } : {}),
      started_at: iso(started),
      finished_at: iso(finished),
      timings: {
        total_s: (finished - started) / 1000,
        agent_s: agentSeconds,
        overhead_s: (finished - started) / 1000 - agentSeconds,
        ...(result.reportedDurationMs === undefined ? {} : { container_reported_agent_s: result.reportedDurationMs / 1000 }),
      },
      step_budget: budget,
      environment: { name: ctx.environment.name, node: result.node },
      run: recordedRunOf(
        mergeRunSources(plan.adapter.usesModel ? trial.usage : null, plan.adapter.readLogs?.(agentDir) ?? {}, {
          exitCode: result.exitCode,
          timedOut,
          wallS: agentSeconds,
        }),
      ),
      ...(cuts.length ? { cut_files: cuts } : {}),
      ...(refused.entries().length ? { refused_files: refused.entries() } : {}),
      ...retryFields(retries),
      ...(trial.toolLog.bound ? { tool_log_bound: { ...trial.toolLog.bound } } : {}),
    });
    writeFiles(staging, {
      [TRIAL_FILES.leg]: plan.task.source,
      [TRIAL_FILES.instruction]: instruction,
      ...(answer === null ? {} : { [TRIAL_FILES.answer]: answer }),
    });
    // Scored from the staged files exactly as `aar verify` will score them later; trial.json comes last,
    // holding the sha256 of every file written (the score's too).
    const score = scoreTrialDir(staging, record)!;
    writeFiles(staging, { [TRIAL_FILES.score]: ctx.family.scoreToJson(score) });
    const sealed = sealTrialFolder(staging, record);
    commitStaging(ctx.jobDir, plan.trialId, staging);
    return { plan, record: sealed, score, shown: { success: ctx.family.progress.success(score), verdict: ctx.family.progress.verdict(score) } };
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    if (isHostWriteError(error)) throw new HostWriteFailure(error);
    if (ctx.signal.aborted && !(error instanceof TrialAborted)) throw new TrialAborted('job interrupted');
    if (error instanceof TrialAborted || error instanceof InfraError) throw error;
    throw new InfraError((error as Error).message);
  } finally {
    gateway.trials.unregister(trial.token);
    takeLogFailure(toolLogPath);
    takeLogFailure(trial.modelLogPath);
    if (env) {
      ctx.running.delete(env);
      await env.remove().catch(() => {});
    }
  }
}

/** Writes the folder of a trial that failed for infrastructure reasons after all retries: reported, not scored. */
export function writeInfraFailure(ctx: TrialRunContext, plan: TrialPlan, error: Error, started: number, retries: InfraRetries = NO_RETRIES): TrialOutcome {
  const staging = createStaging(ctx.jobDir, plan.trialId);
  const finished = Date.now();
  const record = TrialRecordSchema.parse({
    ...recordIdentity(ctx, plan),
    status: 'infra_error',
    error: error.message.split('\n')[0],
    started_at: iso(started),
    finished_at: iso(finished),
    timings: { total_s: (finished - started) / 1000, agent_s: null, overhead_s: null },
    step_budget: ctx.family.stepBudget(plan.task),
    ...retryFields(retries),
  });
  writeFiles(staging, { [TRIAL_FILES.leg]: plan.task.source });
  const sealed = sealTrialFolder(staging, record);
  commitStaging(ctx.jobDir, plan.trialId, staging);
  return { plan, record: sealed, score: null, shown: null };
}
