import { withRetries } from '../../../tools/retry.js';
import { EngineLost, type EngineWatch } from '../engine-wait.js';
import type { TrialPlan } from '../plan.js';
import type { JobReporter } from '../reporters.js';
import { InfraError, runTrialOnce, TrialAborted, writeInfraFailure, type TrialOutcome, type TrialRunContext } from '../trial/index.js';
import { HostWriteFailure, isHostWriteError } from '../write-errors.js';

type TrialTry = { outcome: TrialOutcome } | { error: Error };

/**
 * Runs a trial, again after an infrastructure error (the policy of tools/retry.ts); null when the job was
 * stopped. An attempt lost because the engine went away uses no retry: the trial waits for the engine
 * (EngineWatch) and runs again from the start once it answers.
 */
export async function runWithRetries(ctx: TrialRunContext, plan: TrialPlan, reporter: JobReporter, delayMs: number, engine: EngineWatch): Promise<TrialOutcome | null> {
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

