import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { familyOfRecord } from '../tasks/registry.js';
import { scoreStoredTrial } from '../tasks/families.js';
import { scoreMatchesSeal, tamperedFiles, type TamperedFile } from '../trial/file-hashes.js';
import { listTrialDirs, TRIAL_FILES } from '../trial/folder.js';
import { readTrialRecord, type TrialRecord } from '../trial/record.js';

/** One trial folder as read back: its record, and its score (the family's shape) unless it was an infrastructure error. */
export interface TrialResult<Score extends object = object> {
  dir: string;
  record: TrialRecord;
  score: Score | null;
  /** score.json is not the one the harness wrote: its sha256 differs from the one trial.json holds. */
  scoreEdited?: true;
}

/** Scores a trial folder from its files alone, by its task family. Null for an infrastructure error (never scored). */
export function scoreTrialDir(dir: string, record: TrialRecord = readTrialRecord(dir)): object | null {
  if (record.status === 'infra_error') return null;
  return scoreStoredTrial(familyOfRecord(record), dir, record);
}

/**
 * Every trial of a job with its stored score (computed on the fly where score.json is missing). Score is
 * the shape of the job's task family (AAR: TrialScore).
 */
export function loadJobResults<Score extends object = object>(jobDir: string): TrialResult<Score>[] {
  return listTrialDirs(jobDir).map((dir) => readTrialResult<Score>(dir));
}

/** One trial folder's record and score; errors name the file. */
export function readTrialResult<Score extends object = object>(dir: string): TrialResult<Score> {
  const record = readTrialRecord(dir);
  const scoreFile = path.join(dir, TRIAL_FILES.score);
  let score: object | null = null;
  let edited = false;
  if (record.status !== 'infra_error') {
    if (existsSync(scoreFile)) {
      try {
        const bytes = readFileSync(scoreFile);
        edited = scoreMatchesSeal(record, bytes) === false;
        score = JSON.parse(bytes.toString('utf8')) as object;
      } catch (error) {
        throw new Error(`${scoreFile}: ${(error as Error).message}`);
      }
    } else score = scoreTrialDir(dir, record);
  }
  return { dir, record, score: score as Score | null, ...(edited ? { scoreEdited: true as const } : {}) };
}

/**
 * One warning line per trial whose files are not the ones the harness wrote, by its seal (trial.json's
 * file_sha256): report, compare and export use the stored scores as they are, and say so. Each file is hashed.
 */
export function tamperWarnings(results: readonly TrialResult[]): string[] {
  return results.flatMap((r) => {
    let tampered: TamperedFile[];
    try {
      tampered = tamperedFiles(r.dir, r.record);
    } catch (error) {
      return [`aar: warning: ${r.dir}: its files cannot be checked against its seal (${(error as Error).message.split('\n')[0]})`];
    }
    const verify = `aar verify ${path.dirname(r.dir)} says what changed`;
    if (r.scoreEdited && tampered.length === 1 && tampered[0].file === TRIAL_FILES.score) {
      return [`aar: warning: ${path.join(r.dir, TRIAL_FILES.score)} does not match the sha256 its trial.json holds (edited after the run); ${verify}`];
    }
    if (!tampered.length) return [];
    return [`aar: warning: ${r.dir}: ${tampered.map((t) => `${t.file} ${t.how}`).join(', ')} after the run (its seal in trial.json says otherwise); its stored score is used as it is; ${verify}`];
  });
}

/** Like loadJobResults, but a trial folder that cannot be read is named in `unreadable` instead of stopping the rest. */
export function readJobResults<Score extends object = object>(dirs: readonly string[]): { results: TrialResult<Score>[]; unreadable: string[] } {
  const results: TrialResult<Score>[] = [];
  const unreadable: string[] = [];
  for (const dir of dirs) {
    try {
      results.push(readTrialResult<Score>(dir));
    } catch (error) {
      unreadable.push((error as Error).message.split('\n')[0]);
    }
  }
  return { results, unreadable };
}
