import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { scoreTrial, type TrialScore } from './score.js';
import { listTrialDirs, readTrialText, TRIAL_FILES } from '../trial/folder.js';
import { readTrialRecord, type TrialRecord } from '../trial/record.js';
import { runFactsOfRecord } from '../trial/run-facts.js';

/** One trial folder as read back: its record, and its score unless it was an infrastructure error. */
export interface TrialResult {
  dir: string;
  record: TrialRecord;
  score: TrialScore | null;
}

/** Scores a trial folder from its files alone. Null for an infrastructure error (never scored). */
export function scoreTrialDir(dir: string, record: TrialRecord = readTrialRecord(dir)): TrialScore | null {
  if (record.status === 'infra_error') return null;
  const leg = readTrialText(dir, TRIAL_FILES.leg);
  if (leg === null) throw new Error(`${path.join(dir, TRIAL_FILES.leg)}: missing`);
  return scoreTrial(leg, readTrialText(dir, TRIAL_FILES.answer), readTrialText(dir, TRIAL_FILES.toolLog), runFactsOfRecord(record));
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
