import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunFacts } from '../tasks/aar/scoring/paper.js';
import { scoreTrial, type TrialScore } from '../tasks/aar/scoring/score.js';
import { listTrialDirs, readTrialRecord, readTrialText, TRIAL_FILES, type TrialRecord } from './trial-folder.js';

/** One trial folder as read back: its record, and its score unless it was an infrastructure error. */
export interface TrialResult {
  dir: string;
  record: TrialRecord;
  score: TrialScore | null;
}

/** What only the run knows, from trial.json. */
export function runFactsOf(record: TrialRecord): RunFacts {
  return {
    steps: record.run.steps,
    step_limit_hit: record.run.step_limit_hit,
    timed_out: record.status === 'timed_out',
    wall_s: record.timings.agent_s ?? record.timings.total_s,
    input_tokens: record.run.input_tokens,
    output_tokens: record.run.output_tokens,
    cached_tokens: record.run.cached_tokens,
    cost_usd: record.run.cost_usd,
  };
}

/** Scores a trial folder from its files alone. Null for an infrastructure error (never scored). */
export function scoreTrialDir(dir: string, record: TrialRecord = readTrialRecord(dir)): TrialScore | null {
  if (record.status === 'infra_error') return null;
  const leg = readTrialText(dir, TRIAL_FILES.leg);
  if (leg === null) throw new Error(`${path.join(dir, TRIAL_FILES.leg)}: missing`);
  return scoreTrial(leg, readTrialText(dir, TRIAL_FILES.answer), readTrialText(dir, TRIAL_FILES.toolLog), runFactsOf(record));
}

/** Every trial of a job with its stored score (computed on the fly where score.json is missing). */
export function loadJobResults(jobDir: string): TrialResult[] {
  return listTrialDirs(jobDir).map((dir) => {
    const record = readTrialRecord(dir);
    const scoreFile = path.join(dir, TRIAL_FILES.score);
    let score: TrialScore | null = null;
    if (record.status !== 'infra_error') {
      score = existsSync(scoreFile) ? (JSON.parse(readFileSync(scoreFile, 'utf8')) as TrialScore) : scoreTrialDir(dir, record);
    }
    return { dir, record, score };
  });
}
