import { readdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { hostSecrets } from '../../common/secrets.js';
import { writeFileAtomic } from '../../trial/atomic.js';
import { isJobFolder, JOB_FILE } from '../../trial/folder.js';
import { InputError } from '../../tasks/problems.js';
import type { LoadedConfig } from '../config/load.js';
import { HARNESS_VERSION } from '../version.js';
import { meaningDifferences, meaningFingerprint, meaningOf, mergedMeaning, recordedMeaning, type JobMeaning } from './growth.js';

export { JOB_FILE };

/** Names a folder may hold before its first run wrote job.json: the lock of a run killed that early. */
const EARLY_JOB_ENTRY = /^\.lock(\.|$)/;

/**
 * True for a folder of someone else's files: it exists, holds anything but the lock of a run killed before
 * it wrote job.json, and is not a job folder (no job.json, no trial folder). No command deletes in one.
 */
export function isForeignFolder(dir: string): boolean {
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code === 'ENOTDIR') return true;
    throw error;
  }
  return !entries.every((e) => EARLY_JOB_ENTRY.test(e)) && !isJobFolder(dir);
}

/** The nearest of a folder and the folders above it that exists, when it is not a folder (a file in the way). */
function fileInTheWay(dir: string): string | undefined {
  for (let p = path.resolve(dir); ; p = path.dirname(p)) {
    try {
      return statSync(p).isDirectory() ? undefined : p;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
    }
    if (p === path.dirname(p)) return undefined;
  }
}

/**
 * Refuses job folders that cannot be made because a file stands where a folder must be: the output folder
 * (`output`, or `--jobs-dir`) or one above it, or the job's own folder. One line naming the file and the
 * setting, the flag when a flag set it.
 */
export function refuseFileAsFolder(loaded: Pick<LoadedConfig, 'file' | 'flagOf'>, jobsDir: string, jobDir: string): void {
  const file = fileInTheWay(jobDir);
  if (!file) return;
  const flag = loaded.flagOf?.(['output']);
  const where = flag ? { file: 'command line', path: flag } : { file: loaded.file, path: 'output' };
  const message =
    file === path.resolve(jobDir)
      ? `${file} is a file, not a job folder: give the job another name, or another output folder`
      : file === path.resolve(jobsDir)
        ? `${file} is a file, not a folder: job folders go in a folder`
        : `${file} is a file, so ${jobsDir} cannot be made: job folders go in a folder`;
  throw new InputError([{ ...where, ...(file === path.resolve(jobDir) && !flag ? { path: 'name' } : {}), message }]);
}

/** Refuses to run a job in a folder of someone else's files, naming the config and its `name`; nothing in it is touched. */
export function refuseForeignFolder(jobDir: string, configFile: string): void {
  if (!isForeignFolder(jobDir)) return;
  throw new InputError([{ file: configFile, path: 'name', message: `${jobDir} is not a job folder (it holds other files and no ${JOB_FILE}): give the job a name of its own, or another output folder; nothing in it was touched` }]);
}

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
 * Checks the config against job.json, refusing a rerun that changes what the folder's trials mean: growing its
 * legs, attempts or agents is not a change (see growth.ts); `changedLegs` are legs whose text changed under
 * finished trials. The refusal lists the keys that differ. `write` records the config in job.json (atomically,
 * so a full disk cannot leave it cut off): the run calls it once nothing else can refuse it.
 */
export function checkJobFile(jobDir: string, loaded: LoadedConfig, allowChange: boolean, changedLegs: readonly string[] = []): { write(): void } {
  // job.json never holds a host key (one given to an agent in its env, say): the config is compared as it is kept.
  const current = JSON.parse(hostSecrets.text(JSON.stringify(meaningOf(loaded.config)))) as JobMeaning;
  const stored = readJobFile(jobDir);
  const previous = stored ? recordedMeaning(stored) : undefined;
  const differences = [...(previous ? meaningDifferences(previous, current) : []), ...changedLegs.map((c) => `${c}: its text changed`)];
  if (differences.length && !allowChange) {
    throw new Error(`${jobDir} holds trials of a different configuration (${differences.join('; ')}); use another job name, or --allow-config-change to mix them`);
  }
  const meaning = mergedMeaning(previous, current);
  return {
    write() {
      const record = { fingerprint: meaningFingerprint(meaning), harness_version: HARNESS_VERSION, config_file: loaded.file, config: loaded.config, meaning, updated_at: new Date().toISOString() };
      writeFileAtomic(path.join(jobDir, JOB_FILE), hostSecrets.text(JSON.stringify(record, null, 2) + '\n'));
    },
  };
}

/** Removes a folder that holds nothing (but empty folders): what a refused run made. Anything in it keeps it. */
export function removeEmptyFolder(dir: string): void {
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory()) return;
      removeEmptyFolder(path.join(dir, entry.name));
    }
    rmdirSync(dir);
  } catch {
    // not empty, or gone: left as it is
  }
}
