import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../trial/atomic.js';
import type { LoadedConfig } from '../config/load.js';
import { HARNESS_VERSION } from '../version.js';
import { meaningDifferences, meaningFingerprint, meaningOf, mergedMeaning, recordedMeaning } from './growth.js';

export const JOB_FILE = 'job.json';

/** job.json's content, or undefined when the folder has none; a damaged file is named with what to do. */
export function readJobFile(jobDir: string): Record<string, unknown> | undefined {
  const file = path.join(jobDir, JOB_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file}: cannot read: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${file}: damaged (${(error as Error).message}); restore it, or remove it to resume the job without the configuration check`);
  }
}

/**
 * Records the config in job.json (written atomically, so a full disk cannot leave it cut off), refusing a
 * rerun that changes what the folder's trials mean: growing its legs, attempts or agents is not a change
 * (see growth.ts); `changedLegs` are legs whose text changed under finished trials. The refusal lists the
 * keys that differ.
 */
export function checkJobFile(jobDir: string, loaded: LoadedConfig, allowChange: boolean, changedLegs: readonly string[] = []): void {
  const current = meaningOf(loaded.config);
  const stored = readJobFile(jobDir);
  const previous = stored ? recordedMeaning(stored) : undefined;
  const differences = [...(previous ? meaningDifferences(previous, current) : []), ...changedLegs.map((c) => `${c}: its text changed`)];
  if (differences.length && !allowChange) {
    throw new Error(`${jobDir} holds trials of a different configuration (${differences.join('; ')}); use another job name, or --allow-config-change to mix them`);
  }
  const meaning = mergedMeaning(previous, current);
  const record = { fingerprint: meaningFingerprint(meaning), harness_version: HARNESS_VERSION, config_file: loaded.file, config: loaded.config, meaning, updated_at: new Date().toISOString() };
  writeFileAtomic(path.join(jobDir, JOB_FILE), JSON.stringify(record, null, 2) + '\n');
}
