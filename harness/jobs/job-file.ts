import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../trial/atomic.js';
import type { LoadedConfig } from '../config/load.js';
import type { JobConfig } from '../config/schema.js';
import { HARNESS_VERSION } from '../version.js';

export const JOB_FILE = 'job.json';

/** What must not change between runs of one job folder, or its trials would not compare. */
export function fingerprint(config: JobConfig): string {
  const { concurrency: _c, infra_retries: _r, ...rest } = config;
  return createHash('sha256').update(JSON.stringify(rest)).digest('hex').slice(0, 16);
}

/** job.json's fingerprint, or undefined when the folder has none; a damaged file is named with what to do. */
export function readJobFingerprint(jobDir: string): string | undefined {
  const file = path.join(jobDir, JOB_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file}: cannot read: ${(error as Error).message}`);
  }
  try {
    return (JSON.parse(text) as { fingerprint?: string }).fingerprint;
  } catch (error) {
    throw new Error(`${file}: damaged (${(error as Error).message}); restore it, or remove it to resume the job without the configuration check`);
  }
}

/**
 * Checks that the job folder holds trials of this configuration (unless a change is allowed) and records
 * the configuration in job.json, written atomically so a full disk cannot leave it cut off.
 */
export function checkJobFile(jobDir: string, loaded: LoadedConfig, allowChange: boolean): void {
  const print = fingerprint(loaded.config);
  const previous = readJobFingerprint(jobDir);
  if (previous !== undefined && previous !== print && !allowChange) {
    throw new Error(`${jobDir} holds trials of a different configuration; use another job name, or --allow-config-change to mix them`);
  }
  const record = { fingerprint: print, harness_version: HARNESS_VERSION, config_file: loaded.file, config: loaded.config, updated_at: new Date().toISOString() };
  writeFileAtomic(path.join(jobDir, JOB_FILE), JSON.stringify(record, null, 2) + '\n');
}
