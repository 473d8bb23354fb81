import { createHash } from 'node:crypto';
import { DEFAULT_FAMILY } from '../../../tasks/registry.js';
import { TRIAL_FILES, TRIAL_FORMAT, writeFiles } from '../../../trial/folder.js';
import { TrialRecordSchema, type TrialRecord, type TrialStatus } from '../../../trial/record.js';
import { mergeRunSources, recordedRunOf, type RunFacts } from '../../../trial/run-facts.js';
import { notLoggedOf, writeTrajectory } from '../../../trial/trajectory/index.js';
import { refusedCounts } from '../../gateway/request-limits.js';
import { HARNESS_VERSION } from '../../version.js';
import type { TrialPlan } from '../plan.js';
import type { InfraRetries, TrialRunContext } from './context.js';
import type { PreparedAgent, StagedTrial } from './prepare.js';
import type { SandboxRun } from './sandbox.js';

export const iso = (ms: number): string => new Date(ms).toISOString();

/** trial.json's account of the infrastructure retries a trial took. */
export const retryFields = (retries: InfraRetries) => ({ infra_retries: retries.count, ...(retries.errors.length ? { infra_retry_errors: retries.errors } : {}) });

/** The fields of trial.json that say what ran, the same for every outcome. */
export function recordIdentity(ctx: TrialRunContext, plan: TrialPlan) {
  return {
    format: TRIAL_FORMAT,
    // AAR's records carry no family, as before families existed.
    ...(ctx.family.name === DEFAULT_FAMILY ? {} : { family: ctx.family.name }),
    trial_id: plan.trialId,
    job: ctx.jobName,
    agent: { id: plan.agentId, name: plan.agent.name, model: plan.agent.model ?? null, version: plan.agent.version ?? null, uses_model: plan.adapter.usesModel },
    leg: { ...ctx.family.describe(plan.task), sha256: createHash('sha256').update(plan.task.source).digest('hex') },
    attempt: plan.attempt,
    seed: plan.seed,
    harness_version: HARNESS_VERSION,
  };
}

/** How the run ended, as trial.json states it. */
function runEnding(ctx: TrialRunContext, ran: SandboxRun): { status: TrialStatus; error: string | null; timedOut: boolean } {
  const { config } = ctx;
  const { result, work, agentSeconds } = ran;
  // A timeout the harness's clock did not see (it starts before the sandbox's) is the agent's claim: its failure.
  const claimedTimeout = result.timedOut && result.durationMs < work.timeoutMs;
  const timedOut = result.timedOut && !claimedTimeout;
  const status: TrialStatus = timedOut ? 'timed_out' : result.exitCode === 0 && !claimedTimeout ? 'completed' : 'agent_error';
  const error = claimedTimeout
    ? `the agent's result claimed a timeout after ${agentSeconds.toFixed(1)} s of the ${config.timeout_s} s limit`
    : status === 'agent_error'
      ? result.fate?.oomAtOwnLimit
        ? `out of memory: the kernel killed the agent at the trial's ${config.resources.memory_mb} MB limit (exit status ${result.exitCode})`
        : `the agent exited with status ${result.exitCode}`
      : status === 'timed_out'
        ? `killed at the ${config.timeout_s} s timeout`
        : null;
  return { status, error, timedOut };
}

/** A trial's record and its run facts, in the one shape scoring takes. */
export interface RecordedTrial {
  record: TrialRecord;
  run: RunFacts;
}

/** Phase 3: trial.json's record of the run (not yet written: the seal comes last) and the files scoring reads. */
export function recordTrial(ctx: TrialRunContext, plan: TrialPlan, staged: StagedTrial, prepared: PreparedAgent, ran: SandboxRun, started: number, retries: InfraRetries): RecordedTrial {
  const { result, agentSeconds, cuts, refused } = ran;
  const { status, error, timedOut } = runEnding(ctx, ran);
  const gatewayTrial = staged.gatewayTrial;
  const requestsRefused = refusedCounts(gatewayTrial.requests);
  const finished = Date.now();
  const run = mergeRunSources(plan.adapter.usesModel ? gatewayTrial.usage : null, plan.adapter.readLogs?.(staged.agentDir) ?? {}, {
    exitCode: result.exitCode,
    timedOut,
    wallS: agentSeconds,
    stepBudget: staged.budget,
  });
  const record = TrialRecordSchema.parse({
    ...recordIdentity(ctx, plan),
    status,
    error,
    ...(result.fate?.oomAtOwnLimit ? { oom_killed: true } : {}),
    started_at: iso(started),
    finished_at: iso(finished),
    timings: {
      total_s: (finished - started) / 1000,
      agent_s: agentSeconds,
      overhead_s: (finished - started) / 1000 - agentSeconds,
      ...(result.reportedDurationMs === undefined ? {} : { container_reported_agent_s: result.reportedDurationMs / 1000 }),
      phases: {
        setup: { started_at: iso(started), finished_at: iso(ran.handedOverAt) },
        agent: { started_at: iso(ran.handedOverAt), finished_at: iso(ran.returnedAt) },
        collect: { started_at: iso(ran.returnedAt), finished_at: iso(finished) },
      },
    },
    step_budget: staged.budget,
    environment: { name: ctx.environment.name, node: result.node },
    run: recordedRunOf(run),
    ...(cuts.length ? { cut_files: cuts } : {}),
    ...(refused.entries().length ? { refused_files: refused.entries() } : {}),
    ...retryFields(retries),
    ...(gatewayTrial.toolLog.bound ? { tool_log_bound: { ...gatewayTrial.toolLog.bound } } : {}),
    ...(gatewayTrial.modelLog.bound ? { model_log_bound: structuredClone(gatewayTrial.modelLog.bound) } : {}),
    ...(requestsRefused ? { requests_refused: requestsRefused } : {}),
    ...(gatewayTrial.usage.modelErrors ? { model_errors: { ...gatewayTrial.usage.modelErrors } } : {}),
  });
  writeFiles(staged.staging, {
    [TRIAL_FILES.leg]: plan.task.source,
    [TRIAL_FILES.instruction]: prepared.instruction,
    ...(ran.answer === null ? {} : { [TRIAL_FILES.answer]: ran.answer }),
  });
  // From the logs now complete (the gateway takes no more of this trial's requests); scoring never reads it.
  writeTrajectory(
    staged.staging,
    plan.trialId,
    { name: plan.agent.name, version: plan.agent.version ?? (plan.adapter.usesModel ? 'unknown' : HARNESS_VERSION), model: plan.agent.model ?? null },
    notLoggedOf(record),
  );
  return { record, run };
}
