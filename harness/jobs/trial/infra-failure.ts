import { commitStaging, createStaging, TRIAL_FILES, writeFiles } from '../../../trial/folder.js';
import { sealTrialFolder } from '../../../trial/file-hashes.js';
import { TrialRecordSchema } from '../../../trial/record.js';
import type { TrialPlan } from '../plan.js';
import { NO_RETRIES, type InfraRetries, type TrialOutcome, type TrialRunContext } from './context.js';
import { iso, recordIdentity, retryFields } from './record.js';

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
