import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { HARNESS_VERSION } from '../harness/version.js';
import type { LoadedLeg } from '../tasks/aar/load.js';
import { stepBudget } from '../tasks/aar/schema.js';
import type { TrialScore } from '../tasks/aar/scoring/score.js';
import { TRIAL_FILES, TRIAL_FORMAT, writeTrialFolder } from '../trial/folder.js';
import type { TrialRecordInput } from '../trial/record.js';
import type { Configuration } from '../verifier/compare/select.js';
import { scoreTrialDir, type TrialResult } from '../verifier/results.js';

/**
 * Job folders for bench:compare-sim: one job, real legs, a trial folder per configuration x leg x attempt
 * with a real trial.json, the leg's own leg.json and a score.json. Written once per scenario; each
 * replicate rewrites only the score.json files with the outcomes drawn, and compare reads the folders
 * back as it reads any job.
 */

const JOB_CONFIG = { name: 'sim', timeout_s: 600, budget: { steps: 'auto' }, tools: { mode: 'live', output_limit: 8000 } };

/** One configuration of a simulated job: its label, the legs it lost to infrastructure errors (every attempt), and its cost per trial. */
export interface SimConfig {
  label: string;
  lostLegs?: ReadonlySet<number>;
  cost: number;
}

/** The scored trial folders of a simulated job, in a fixed order: config, leg, attempt. */
export interface SimJob {
  dir: string;
  /** For each scored trial: its folder, the leg's template score, and where its outcome is in the draw. */
  scored: { file: string; template: TrialScore; config: number; leg: number; attempt: number }[];
}

export function writeSimJob(dir: string, legs: readonly LoadedLeg[], configs: readonly SimConfig[], attempts: number): SimJob {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'job.json'), JSON.stringify({ harness_version: HARNESS_VERSION, config_file: path.join(dir, 'job.yaml'), config: JOB_CONFIG }, null, 2) + '\n');
  const templates = new Map<number, TrialScore>();
  const scored: SimJob['scored'] = [];
  configs.forEach((config, c) => {
    legs.forEach((loaded, leg) => {
      for (let attempt = 1; attempt <= attempts; attempt++) {
        const infra = config.lostLegs?.has(leg) ?? false;
        const trialId = `${config.label}__${loaded.id.replaceAll('/', '__')}__${attempt}`;
        const record: TrialRecordInput = {
          format: TRIAL_FORMAT, trial_id: trialId, job: 'sim',
          agent: { id: config.label, name: config.label, model: null, version: null },
          leg: { id: loaded.id, variant: loaded.variant, level: loaded.level, file: loaded.file, sha256: createHash('sha256').update(loaded.source).digest('hex') },
          attempt, status: infra ? 'infra_error' : 'completed', error: infra ? 'the container died' : null,
          started_at: new Date(0).toISOString(), finished_at: new Date(60_000).toISOString(),
          timings: { total_s: 60, agent_s: 59, overhead_s: 1 }, step_budget: stepBudget(loaded.leg),
          run: { steps: 10, step_limit_hit: null, exit_code: 0, input_tokens: 1000, output_tokens: 100, cached_tokens: 0, cost_usd: infra ? null : config.cost },
          seed: null, harness_version: HARNESS_VERSION,
        };
        const trialDir = writeTrialFolder(dir, trialId, { 'trial.json': JSON.stringify(record, null, 2) + '\n', 'leg.json': loaded.source, 'answer.txt': String(loaded.leg.passcode) });
        if (infra) continue;
        let template = templates.get(leg);
        if (!template) templates.set(leg, (template = scoreTrialDir(trialDir) as TrialScore));
        scored.push({ file: path.join(trialDir, TRIAL_FILES.score), template, config: c, leg, attempt });
      }
    });
  });
  return { dir, scored };
}

/** One trial's score in a replicate: the leg's template with FA (0/1) as drawn; PVR and RCR follow FA. */
const scoreOf = (template: TrialScore, fa: 0 | 1): TrialScore => ({ ...template, fa, pvr: fa, rcr: fa });

type Outcome = (config: number, leg: number, attempt: number) => 0 | 1;

/** Writes one replicate's outcomes into the score.json files, for compare to read back from the folders. */
export function writeOutcomes(job: SimJob, fa: Outcome): void {
  for (const t of job.scored) writeFileSync(t.file, JSON.stringify(scoreOf(t.template, fa(t.config, t.leg, t.attempt))));
}

/**
 * The configurations of one replicate as loadConfigurations returns them after writeOutcomes, built in
 * memory from a first load of the folders (`loaded`): the same records and folders, the drawn scores.
 */
export function configurationsOf(job: SimJob, loaded: readonly Configuration[], fa: Outcome): Configuration[] {
  const byFile = new Map(job.scored.map((t) => [path.dirname(t.file), t]));
  return loaded.map((c) => ({
    ...c,
    trials: c.trials.map((trial): TrialResult => {
      const t = byFile.get(trial.dir);
      return t ? { ...trial, score: scoreOf(t.template, fa(t.config, t.leg, t.attempt)) } : trial;
    }),
  }));
}
