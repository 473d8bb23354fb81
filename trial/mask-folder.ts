import { randomBytes } from 'node:crypto';
import { closeSync, lstatSync, openSync, readdirSync, readSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { hostSecrets, type SecretMask } from '../common/secrets.js';
import { TRIAL_FILES } from './folder.js';

const CHUNK_BYTES = 1024 * 1024;

/** Streams a file through a masker; `out` takes what it passes on (nothing when undefined). Returns whether anything was masked. */
function maskFile(file: string, mask: SecretMask, out?: number): boolean {
  const stream = mask.stream();
  const fd = openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    for (let position = 0; ; ) {
      const n = readSync(fd, buffer, 0, CHUNK_BYTES, position);
      if (n === 0) break;
      position += n;
      const passed = stream.push(buffer.subarray(0, n));
      if (out !== undefined) writeSync(out, passed);
    }
    const rest = stream.end();
    if (out !== undefined) writeSync(out, rest);
    return stream.masked;
  } finally {
    closeSync(fd);
  }
}

/**
 * Masks every secret (common/secrets.ts: the host's keys, trial tokens) in the files of a trial folder being
 * staged: what the agent wrote (its output, its own logs, its answer) may hold its trial token, and a file the
 * harness wrote may hold whatever came back from an upstream. Files are read in chunks; only a file that holds
 * a secret is written again (at the folder's top, then renamed over it). leg.json is the task as loaded, byte for
 * byte (its sha256 is in trial.json), and is left as it is; links and other non-files are not followed.
 * Returns the files masked, relative to the folder.
 */
export function maskSecretsInFolder(dir: string, mask: SecretMask = hostSecrets): string[] {
  const masked: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const relative = path.relative(dir, file).split(path.sep).join('/');
    if (!entry.isFile() || relative === TRIAL_FILES.leg || !lstatSync(file).isFile()) continue;
    if (!maskFile(file, mask)) continue;
    // At the folder's top, where only the harness writes (an agent's files are all under agent/): no name of theirs clashes.
    const temporary = path.join(dir, `.masking-${randomBytes(8).toString('hex')}`);
    const out = openSync(temporary, 'wx');
    try {
      maskFile(file, mask, out);
    } finally {
      closeSync(out);
    }
    renameSync(temporary, file);
    masked.push(relative);
  }
  return masked;
}
