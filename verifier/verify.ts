import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadedScorerOf, scoreStoredTrial, scorerOfRecord } from '../tasks/families.js';
import { PREVIOUS_SCORE_FILE, sha256Hex, tamperedFiles, type TamperedFile } from '../trial/file-hashes.js';
import { listTrialDirs, TRIAL_FILES } from '../trial/folder.js';
import { readTrialRecord } from '../trial/record.js';

/** A trial whose score.json is not the score its files give now. */
export interface ScoreChange {
  dir: string;
  /** The fields that differ, as `fa 1 -> 0`; empty when score.json is missing. */
  fields: string[];
  missing: boolean;
  /** Its files were edited after the run: shown, never written (see `tampered`). */
  fromTamperedFiles: boolean;
  /** score.json was rewritten (--fix), the previous one kept as score.prev.json. */
  written: boolean;
}

export interface VerifySummary {
  trials: number;
  scored: number;
  /** Trials whose score.json is missing or differs from the score their files give. */
  changed: ScoreChange[];
  /** Trials with files that are not as the harness wrote them (trial.json's file_sha256; leg.sha256 for older folders). */
  tampered: Array<{ dir: string; files: TamperedFile[] }>;
  /** Trials written before trial.json held file hashes: only leg.json could be checked. */
  unsealed: number;
  infraErrors: number;
  /** Trial folders that could not be read; each message names the file. */
  failures: string[];
}

export interface VerifyOptions {
  /** Rewrite score.json where it changed (keeping the previous one as score.prev.json); otherwise write nothing. */
  fix?: boolean;
  /** Worker threads; `auto` uses one per core for large jobs. Workers need the compiled package (dist/). */
  workers?: number | 'auto';
}

const emptySummary = (): VerifySummary => ({ trials: 0, scored: 0, changed: [], tampered: [], unsealed: 0, infraErrors: 0, failures: [] });

/** Whether a trial's outcome is worth nothing as it stands: a file edited, or a score that is not its files'. */
export const verifyFoundProblems = (s: VerifySummary): boolean => s.changed.length > 0 || s.tampered.length > 0 || s.failures.length > 0;

function shown(value: unknown): string {
  if (value === undefined) return '(absent)';
  const text = typeof value === 'string' ? JSON.stringify(value) : String(value);
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}

/** The fields of a stored score that differ from the fresh one, as `field old -> new`. */
export function scoreFieldChanges(stored: string, fresh: string): string[] {
  let before: Record<string, unknown>;
  try {
    before = JSON.parse(stored) as Record<string, unknown>;
    if (typeof before !== 'object' || before === null || Array.isArray(before)) throw new Error('not an object');
  } catch {
    return ['score.json is not a JSON object'];
  }
  const after = JSON.parse(fresh) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(after), ...Object.keys(before)])];
  const changes = fields.filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f])).map((f) => `${f} ${shown(before[f])} -> ${shown(after[f])}`);
  return changes.length ? changes : ['same values, written differently'];
}

function readOptionalBytes(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Writes a file by a temporary file renamed over it (a failure leaves the old one). */
async function replaceFile(file: string, content: string | Uint8Array): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, content);
  await rename(tmp, file);
}

/** --fix on one trial: the previous score kept, the new one written, and trial.json's seal of it updated. */
async function rewriteScore(dir: string, stored: Buffer | null, fresh: string): Promise<void> {
  if (stored !== null) await replaceFile(path.join(dir, PREVIOUS_SCORE_FILE), stored);
  await replaceFile(path.join(dir, TRIAL_FILES.score), fresh);
  const recordFile = path.join(dir, TRIAL_FILES.record);
  // Edited as JSON, so the record keeps its text but the one hash (fields this version does not know included).
  const raw = JSON.parse(readFileSync(recordFile, 'utf8')) as { file_sha256?: Record<string, string> };
  if (raw.file_sha256) {
    raw.file_sha256[TRIAL_FILES.score] = sha256Hex(fresh);
    await replaceFile(recordFile, JSON.stringify(raw, null, 2) + '\n');
  }
}

/**
 * Checks and re-scores the given trial folders in this thread, loading only the scoring code of their
 * families (tasks/families.ts). A trial's files are checked against trial.json's hashes first; a trial with
 * an edited file other than score.json is never re-scored into score.json. With `fix`, the other changed
 * scores are rewritten through the thread pool while the next trials are scored.
 */
export async function verifyTrialDirs(dirs: readonly string[], fix = false): Promise<VerifySummary> {
  const summary = emptySummary();
  const writes = new Set<Promise<void>>();
  for (const dir of dirs) {
    summary.trials++;
    try {
      const record = readTrialRecord(dir);
      if (!record.file_sha256) summary.unsealed++;
      const tampered = tamperedFiles(dir, record);
      if (tampered.length) summary.tampered.push({ dir, files: tampered });
      if (record.status === 'infra_error') {
        summary.infraErrors++;
        continue;
      }
      const scorer = loadedScorerOf(record) ?? (await scorerOfRecord(record));
      const fresh = scorer.scoreToJson(scoreStoredTrial(scorer, dir, record));
      summary.scored++;
      const file = path.join(dir, TRIAL_FILES.score);
      const stored = readOptionalBytes(file);
      const storedText = stored?.toString('utf8') ?? null;
      const fromTamperedFiles = tampered.some((t) => t.file !== TRIAL_FILES.score);
      const scoreSealStale = !fromTamperedFiles && tampered.some((t) => t.file === TRIAL_FILES.score);
      if (storedText === fresh && !(fix && scoreSealStale)) continue;
      const written = fix && !fromTamperedFiles;
      if (storedText !== fresh) {
        summary.changed.push({ dir, fields: storedText === null ? [] : scoreFieldChanges(storedText, fresh), missing: storedText === null, fromTamperedFiles, written });
      }
      if (written) {
        const write: Promise<void> = rewriteScore(dir, storedText === fresh ? null : stored, fresh)
          .catch((error: Error) => void summary.failures.push(error.message.includes(dir) ? error.message : `${file}: ${error.message}`))
          .finally(() => writes.delete(write));
        writes.add(write);
        if (writes.size >= 32) await Promise.race(writes);
      }
    } catch (error) {
      const message = (error as Error).message.split('\n')[0];
      // Every line names the trial, whatever failed.
      summary.failures.push(message.includes(dir) ? message : `${dir}: ${message}`);
    }
  }
  await Promise.all(writes);
  return summary;
}

/** Below this many trials per thread, a worker's start-up costs more than it saves (measured on 2 cores). */
const TRIALS_PER_WORKER = 2500;

function workerCount(trials: number, requested: VerifyOptions['workers']): number {
  if (typeof requested === 'number') return Math.max(1, Math.min(requested, trials));
  if (requested !== 'auto' || !import.meta.url.endsWith('.js')) return 1;
  return Math.max(1, Math.min(os.availableParallelism(), Math.floor(trials / TRIALS_PER_WORKER)));
}

function runWorker(dirs: string[], fix: boolean): Promise<VerifySummary> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./verify-worker.js', import.meta.url), { workerData: { dirs, fix } });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`verify worker exited with ${code}`)));
  });
}

/**
 * Checks every trial of a job against the hashes its trial.json holds and re-scores it from its files alone
 * (no Docker, no network); with `fix`, rewrites score.json where it changed. Large jobs are split over
 * worker threads.
 */
export function verifyJob(jobDir: string, options: VerifyOptions = {}): Promise<VerifySummary> {
  return verifyTrials(listTrialDirs(jobDir), options);
}

const byDir = (a: { dir: string }, b: { dir: string }): number => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0);

/** verifyJob over trial folders already listed (`aar verify` lists them once, to refuse a folder without any). */
export async function verifyTrials(dirs: readonly string[], options: VerifyOptions = {}): Promise<VerifySummary> {
  const workers = workerCount(dirs.length, options.workers ?? 'auto');
  if (workers === 1) return verifyTrialDirs(dirs, options.fix);
  const slices = Array.from({ length: workers }, (_, w) => dirs.filter((_, i) => i % workers === w));
  const parts = await Promise.all(slices.map((slice) => runWorker(slice, options.fix ?? false)));
  const total = emptySummary();
  for (const p of parts) {
    total.trials += p.trials;
    total.scored += p.scored;
    total.infraErrors += p.infraErrors;
    total.unsealed += p.unsealed;
    total.changed.push(...p.changed);
    total.tampered.push(...p.tampered);
    total.failures.push(...p.failures);
  }
  total.changed.sort(byDir);
  total.tampered.sort(byDir);
  return total;
}
