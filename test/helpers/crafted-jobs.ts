import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HARNESS_VERSION } from '../../harness/version.js';
import type { LoadedLeg } from '../../tasks/aar/load.js';
import { stepBudget } from '../../tasks/aar/schema.js';
import { scoreToJson, type TrialScore } from '../../tasks/aar/scoring/score.js';
import { TRIAL_FORMAT, writeTrialFolder } from '../../trial/folder.js';
import type { TrialRecordInput } from '../../trial/record.js';
import { scoreTrialDir } from '../../verifier/results.js';

/** What one crafted trial scored: FA (0/1), optionally PVR and RCR, and the tool_log.jsonl it left; `infra` is an infrastructure error. */
export type CraftedOutcome = { fa: 0 | 1; pvr?: number; rcr?: number; cost?: number; toolLog?: string } | 'infra';

/** The effective config job.json records for crafted jobs (the same in every job unless a test changes it). */
export const CRAFTED_JOB = { name: 'crafted', timeout_s: 600, budget: { steps: 'auto' }, tools: { mode: 'live', output_limit: 8000 } };

/**
 * Writes one agent's trial folders on real legs with the outcomes a test decides: a real trial.json, the
 * leg's own leg.json, and the score.json the scorer writes for the leg with FA, PVR and RCR set as given.
 */
export function writeCraftedJob(
  jobDir: string,
  legs: readonly LoadedLeg[],
  agent: string,
  attempts: number,
  outcome: (legIndex: number, attempt: number) => CraftedOutcome,
  options: { job?: Record<string, unknown>; model?: string | null } = {},
): void {
  mkdirSync(jobDir, { recursive: true });
  writeFileSync(path.join(jobDir, 'job.json'), JSON.stringify({ harness_version: HARNESS_VERSION, config_file: path.join(jobDir, 'job.yaml'), config: options.job ?? CRAFTED_JOB }, null, 2) + '\n');
  legs.forEach((loaded, i) => {
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const o = outcome(i, attempt);
      const trialId = `${agent}__${loaded.id.replaceAll('/', '__')}__${attempt}`;
      const record: TrialRecordInput = {
        format: TRIAL_FORMAT, trial_id: trialId, job: 'crafted',
        agent: { id: agent, name: agent, model: options.model ?? null, version: null },
        leg: { id: loaded.id, variant: loaded.variant, level: loaded.level, file: loaded.file, sha256: createHash('sha256').update(loaded.source).digest('hex') },
        attempt,
        status: o === 'infra' ? 'infra_error' : 'completed',
        error: o === 'infra' ? 'the container died' : null,
        started_at: new Date(0).toISOString(), finished_at: new Date(60_000).toISOString(),
        timings: { total_s: 60, agent_s: 59, overhead_s: 1 },
        step_budget: stepBudget(loaded.leg),
        run: { steps: 10, step_limit_hit: null, exit_code: 0, input_tokens: 1000, output_tokens: 100, cached_tokens: 0, cost_usd: o === 'infra' ? null : (o.cost ?? 0.01) },
        seed: null, harness_version: HARNESS_VERSION,
      };
      const dir = writeTrialFolder(jobDir, trialId, { 'trial.json': JSON.stringify(record, null, 2) + '\n', 'leg.json': loaded.source, 'answer.txt': String(loaded.leg.passcode), ...(o !== 'infra' && o.toolLog !== undefined ? { 'tool_log.jsonl': o.toolLog } : {}) });
      if (o === 'infra') continue;
      const score = scoreTrialDir(dir) as TrialScore;
      writeFileSync(path.join(dir, 'score.json'), scoreToJson({ ...score, fa: o.fa, pvr: o.pvr ?? (o.fa ? 1 : 0), rcr: o.rcr ?? (o.fa ? 1 : 0) }));
    }
  });
}
