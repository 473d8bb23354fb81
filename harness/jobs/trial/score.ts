import { commitStaging, TRIAL_FILES, writeFiles } from '../../../trial/folder.js';
import { sealTrialFolder } from '../../../trial/file-hashes.js';
import type { TrialPlan } from '../plan.js';
import type { TrialOutcome, TrialRunContext } from './context.js';
import { iso, type RecordedTrial } from './record.js';

/**
 * Phase 4: the trial scored by its family from the staged files, exactly as `aar verify` will score them
 * later; then trial.json, holding the sha256 of every file written (the score's too), and the folder put in
 * place. Synchronous from the score to the rename: no gateway request can append to a log in between.
 */
export function scoreAndSeal(ctx: TrialRunContext, plan: TrialPlan, staging: string, { record, run }: RecordedTrial): TrialOutcome {
  const scoringStarted = Date.now();
  const score = ctx.family.score({ dir: staging, record, run });
  writeFiles(staging, { [TRIAL_FILES.score]: ctx.family.scoreToJson(score) });
  const phases = { ...record.timings.phases, scoring: { started_at: iso(scoringStarted), finished_at: iso(Date.now()) } };
  const sealed = sealTrialFolder(staging, { ...record, timings: { ...record.timings, phases } });
  commitStaging(ctx.jobDir, plan.trialId, staging);
  return { plan, record: sealed, score, shown: { success: ctx.family.progress.success(score), verdict: ctx.family.progress.verdict(score) } };
}
