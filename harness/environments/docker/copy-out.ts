import type Docker from 'dockerode';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { regularFilesUnder } from '../../../container/trial-result.js';
import { AnswerCopy, LOG_LIMIT_BYTES } from '../../../trial/copy-limits.js';
import type { TrialWork, TrialWorkResult } from '../types.js';
import { isNotFound } from './container.js';
import { extractUnder, firstFileOfTar, type CopyOptions } from './tar.js';

/** A file's bytes from a container, running or stopped (at most `options.maxBytes`, cut where no UTF-8 character is split), or null when it does not exist. */
export async function copyFileOut(container: Docker.Container, file: string, options: CopyOptions = {}): Promise<Buffer | null> {
  try {
    const maxBytes = options.maxBytes ?? LOG_LIMIT_BYTES;
    const copied = await firstFileOfTar(await container.getArchive({ path: file }), options.answer ? new AnswerCopy(maxBytes) : maxBytes);
    if (copied?.cut) options.onCut?.({ path: file, ...copied.cut });
    return copied?.content ?? null;
  } catch (error) {
    if (isNotFound(error)) return null;
    throw error;
  }
}

/** Copies a container's folder into a host folder, each file cut at `options.maxBytes` with a marker line; returns the number of files (0 when the folder is absent). */
export async function copyDirOut(container: Docker.Container, dir: string, hostDir: string, options: CopyOptions = {}): Promise<number> {
  try {
    return await extractUnder(await container.getArchive({ path: dir }), hostDir, options);
  } catch (error) {
    if (isNotFound(error)) return 0;
    throw error;
  }
}

/** Every regular file under a host folder (links not followed): path relative to it -> bytes. */
function readTree(root: string): Record<string, Buffer> {
  return Object.fromEntries(regularFilesUnder(root).map((relative) => [relative, readFileSync(path.join(root, relative))]));
}

/**
 * The work's files and folders, copied out of the container (it may have stopped: the files stay readable),
 * each bounded by the work's limits; what was cut is added to `cuts`.
 */
export async function collectByArchive(container: Docker.Container, work: TrialWork, cuts: TrialWorkResult['cuts']): Promise<Pick<TrialWorkResult, 'files' | 'dirs'>> {
  const files: Record<string, Buffer | null> = {};
  for (const file of work.collectFiles) {
    files[file] = await copyFileOut(container, file, { maxBytes: work.limits.fileBytes, answer: true, onCut: (c) => cuts.push({ ...c, path: file }) });
  }
  const dirs: Record<string, Record<string, Buffer>> = {};
  for (const dir of work.collectDirs) {
    const host = mkdtempSync(path.join(os.tmpdir(), 'aar-collect-'));
    try {
      await copyDirOut(container, dir, host, { maxBytes: work.limits.logBytes, onCut: (c) => cuts.push({ path: `${dir}/${c.path}`, size: c.size, kept: c.kept }) });
      dirs[dir] = readTree(host);
    } finally {
      rmSync(host, { recursive: true, force: true });
    }
  }
  return { files, dirs };
}
