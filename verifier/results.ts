import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { RunFacts } from '../tasks/aar/scoring/paper.js';
import { familyOfRecord } from '../tasks/registry.js';
import { listTrialDirs, readTrialRecord, TRIAL_FILES, type TrialRecord } from './trial-folder.js';

/** One trial folder as read back: its record, and its score (the family's shape) unless it was an infrastructure error. */
export interface TrialResult<Score extends object = object> {
  dir: string;
  record: TrialRecord;
  score: Score | null;
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

/** Scores a trial folder from its files alone, by its task family. Null for an infrastructure error (never scored). */
export function scoreTrialDir(dir: string, record: TrialRecord = readTrialRecord(dir)): object | null {
  if (record.status === 'infra_error') return null;
  return familyOfRecord(record).score({ dir, record, run: runFactsOf(record) });
}

/**
 * Every trial of a job with its stored score (computed on the fly where score.json is missing). Score is
 * the shape of the job's task family (AAR: TrialScore).
 */
export function loadJobResults<Score extends object = object>(jobDir: string): TrialResult<Score>[] {
  return listTrialDirs(jobDir).map((dir) => {
    const record = readTrialRecord(dir);
    const scoreFile = path.join(dir, TRIAL_FILES.score);
    let score: object | null = null;
    if (record.status !== 'infra_error') {
      score = existsSync(scoreFile) ? (JSON.parse(readFileSync(scoreFile, 'utf8')) as object) : scoreTrialDir(dir, record);
    }
    return { dir, record, score: score as Score | null };
  });
}
