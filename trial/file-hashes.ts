import { createHash } from 'node:crypto';
import { closeSync, openSync, readdirSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hostSecrets } from '../common/secrets.js';
import { TRIAL_FILES } from './folder.js';
import { trialRecordJson, type TrialRecord } from './record.js';

/**
 * The seal of a trial folder: trial.json's `file_sha256` holds the sha256 of every file the harness wrote in
 * the folder (leg, instruction, answer, tool log, model log, trajectory, agent logs, score), by path relative
 * to the folder. trial.json is written last, once score.json is there, so the seal covers the score too;
 * trial.json itself and score.prev.json (kept by `aar verify --fix`) are outside it.
 *
 * The seal shows a file edited, removed or added after the run; it is not a signature: whoever can write the
 * job folder can write trial.json too. The container never can (it sees none of the job folder).
 */

/** The score `aar verify --fix` replaced, kept beside the new one. */
export const PREVIOUS_SCORE_FILE = 'score.prev.json';

const UNSEALED = new Set<string>([TRIAL_FILES.record, PREVIOUS_SCORE_FILE]);

/** The one buffer files are hashed through (hashing is synchronous, so it is never shared). */
const hashBuffer = Buffer.allocUnsafe(1 << 20);

/** sha256 of a file, hex, read in pieces: a file of any size costs the one buffer. */
export function fileSha256(file: string): string {
  const hash = createHash('sha256');
  const buffer = hashBuffer;
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    for (let n = readSync(fd, buffer); n > 0; n = readSync(fd, buffer)) hash.update(buffer.subarray(0, n));
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (!e.message.includes(file)) e.message = `${file}: ${e.message}`;
    throw e;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return hash.digest('hex');
}

export const sha256Hex = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/**
 * What a trial folder holds besides trial.json and score.prev.json: its regular files (path relative to it,
 * with `/`) and anything else that is not a folder (a symlink, a fifo), which the harness never writes.
 */
function folderEntries(dir: string): { files: string[]; others: string[] } {
  const files: string[] = [];
  const others: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const relative = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (entry.isDirectory() || UNSEALED.has(relative)) continue;
    (entry.isFile() ? files : others).push(relative);
  }
  return { files: files.sort(), others: others.sort() };
}

/** The sha256 of every regular file of a trial folder the seal covers, sorted by path. */
export function hashTrialFiles(dir: string): Record<string, string> {
  const { files } = folderEntries(dir);
  return Object.fromEntries(files.map((f) => [f, fileSha256(path.join(dir, f))]));
}

/**
 * Writes trial.json, last, holding the sha256 of every other file of the folder; returns the record written.
 * For a folder being staged (folder.ts createStaging): the rename into place makes it whole or absent.
 */
export function sealTrialFolder(dir: string, record: TrialRecord): TrialRecord {
  const sealed: TrialRecord = { ...record, file_sha256: hashTrialFiles(dir) };
  // Its texts (an error, a model API's message, names of refused files) may carry a secret: masked as every file.
  const text = trialRecordJson(sealed);
  const masked = hostSecrets.text(text);
  writeFileSync(path.join(dir, TRIAL_FILES.record), masked);
  return masked === text ? sealed : (JSON.parse(masked) as TrialRecord);
}

/** A file of a trial folder that is not as the harness left it, and how. */
export interface TamperedFile {
  file: string;
  how: 'changed' | 'removed' | 'added';
}

/**
 * The files of a trial folder that differ from its seal: changed, removed, or added (present but never written
 * by the harness). A folder without a seal (written before seals existed) is checked on what its record
 * always held: leg.json's sha256.
 */
export function tamperedFiles(dir: string, record: TrialRecord): TamperedFile[] {
  const sealed = record.file_sha256;
  if (!sealed) {
    const leg = path.join(dir, TRIAL_FILES.leg);
    let actual: string | null = null;
    try {
      actual = sha256Hex(readFileSync(leg));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    return actual === record.leg.sha256 ? [] : [{ file: TRIAL_FILES.leg, how: actual === null ? 'removed' : 'changed' }];
  }
  const { files, others } = folderEntries(dir);
  const present = new Set(files);
  const tampered: TamperedFile[] = [];
  for (const [file, sha] of Object.entries(sealed)) {
    if (!present.has(file)) tampered.push({ file, how: 'removed' });
    else if (fileSha256(path.join(dir, file)) !== sha) tampered.push({ file, how: 'changed' });
  }
  for (const file of [...files, ...others]) if (!Object.hasOwn(sealed, file)) tampered.push({ file, how: 'added' });
  // leg.json's hash is also in `leg.sha256`, which says what ran: both must agree.
  if (sealed[TRIAL_FILES.leg] !== undefined && sealed[TRIAL_FILES.leg] !== record.leg.sha256 && !tampered.some((t) => t.file === TRIAL_FILES.leg)) {
    tampered.push({ file: TRIAL_FILES.leg, how: 'changed' });
  }
  return tampered.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** Whether a score.json's bytes are the ones the trial's seal holds; null when the trial has no seal of its score. */
export function scoreMatchesSeal(record: TrialRecord, scoreBytes: Uint8Array): boolean | null {
  const sealed = record.file_sha256?.[TRIAL_FILES.score];
  return sealed === undefined ? null : sha256Hex(scoreBytes) === sealed;
}
