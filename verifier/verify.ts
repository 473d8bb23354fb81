import { readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { loadedScorerOf, scoreStoredTrial, scorerOfRecord } from '../tasks/scorers.js';
import { listTrialDirs, TRIAL_FILES } from '../trial/folder.js';
import { readTrialRecord } from '../trial/record.js';

export interface VerifySummary {
  trials: number;
  scored: number;
  /** Trials whose score.json was missing or differed from the recomputed score, and was rewritten. */
  changed: string[];
  infraErrors: number;
  /** Trial folders that could not be read; each message names the file. */
  failures: string[];
}

export interface VerifyOptions {
  /** Report what would change, write nothing. */
  dryRun?: boolean;
  /** Worker threads; `auto` uses one per core for large jobs. Workers need the compiled package (dist/). */
  workers?: number | 'auto';
}

const emptySummary = (): VerifySummary => ({ trials: 0, scored: 0, changed: [], infraErrors: 0, failures: [] });

/**
 * Re-scores the given trial folders in this thread, loading only the scoring code of their families
 * (tasks/scorers.ts). Rewrites go through the thread pool while the next trials are scored: creating a
 * file costs about half a millisecond on some file systems.
 */
export async function verifyTrialDirs(dirs: readonly string[], dryRun = false): Promise<VerifySummary> {
  const summary = emptySummary();
  const writes = new Set<Promise<void>>();
  for (const dir of dirs) {
    summary.trials++;
    try {
      const record = readTrialRecord(dir);
      if (record.status === 'infra_error') {
        summary.infraErrors++;
        continue;
      }
      const scorer = loadedScorerOf(record) ?? (await scorerOfRecord(record));
      const score = scoreStoredTrial(scorer, dir, record);
      summary.scored++;
      const fresh = scorer.scoreToJson(score);
      const file = path.join(dir, TRIAL_FILES.score);
      let stored: string | null = null;
      try {
        stored = readFileSync(file, 'utf8');
      } catch {
        stored = null;
      }
      if (stored === fresh) continue;
      summary.changed.push(path.basename(dir));
      if (!dryRun) {
        const tmp = `${file}.${process.pid}.tmp`;
        const write: Promise<void> = writeFile(tmp, fresh)
          .then(() => rename(tmp, file))
          .catch((error: Error) => void summary.failures.push(`${file}: ${error.message}`))
          .finally(() => writes.delete(write));
        writes.add(write);
        if (writes.size >= 32) await Promise.race(writes);
      }
    } catch (error) {
      summary.failures.push((error as Error).message);
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

function runWorker(dirs: string[], dryRun: boolean): Promise<VerifySummary> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./verify-worker.js', import.meta.url), { workerData: { dirs, dryRun } });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => code !== 0 && reject(new Error(`verify worker exited with ${code}`)));
  });
}

/**
 * Re-scores every trial of a job from its files alone (no Docker, no network) and rewrites score.json
 * where the result differs. Large jobs are split over worker threads.
 */
export function verifyJob(jobDir: string, options: VerifyOptions = {}): Promise<VerifySummary> {
  return verifyTrials(listTrialDirs(jobDir), options);
}

/** verifyJob over trial folders already listed (`aar verify` lists them once, to refuse a folder without any). */
export async function verifyTrials(dirs: readonly string[], options: VerifyOptions = {}): Promise<VerifySummary> {
  const workers = workerCount(dirs.length, options.workers ?? 'auto');
  if (workers === 1) return verifyTrialDirs(dirs, options.dryRun);
  const slices = Array.from({ length: workers }, (_, w) => dirs.filter((_, i) => i % workers === w));
  const parts = await Promise.all(slices.map((slice) => runWorker(slice, options.dryRun ?? false)));
  const total = emptySummary();
  for (const p of parts) {
    total.trials += p.trials;
    total.scored += p.scored;
    total.infraErrors += p.infraErrors;
    total.changed.push(...p.changed);
    total.failures.push(...p.failures);
  }
  total.changed.sort();
  return total;
}
