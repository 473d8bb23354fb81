import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cutMarker, utf8Prefix } from '../../trial/copy-limits.js';
import type { TrialWork, TrialWorkResult } from '../environments/types.js';

/**
 * What the trial runner takes of a sandbox's result. Nothing in it is trusted (the agent can post its own
 * result, or shape the files the entrypoint collects): only the files and folders the work asked for are
 * kept, under their own names, within the work's byte limits, and written below the trial's agent/ folder
 * only. Everything else is refused and listed in trial.json (`refused_files`), so tampering shows.
 */

/** A file or folder of a result that was not taken, and why. */
export interface RefusedFile {
  path: string;
  reason: string;
}

/** Most refusals listed one by one in trial.json; past it one line counts the rest. */
export const REFUSED_LISTED = 50;
/** Most files taken from a result's folders in all (each becomes a file on the host). */
export const COLLECTED_FILES_LIMIT = 10_000;
/** Room for the marker line a sandbox appends to a log file it cut (cutMarker). */
const MARKER_ROOM = 200;
/** Names the harness itself writes in agent/: no collected folder takes them. */
const HARNESS_NAMES_IN_AGENT_DIR = ['stdout.log', 'stderr.log'];
/** Write errors that mean two collected names clash (or one is unusable), not that the host disk failed. */
const CLASH_CODES = new Set(['EEXIST', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG']);

/** Refusals, listed up to REFUSED_LISTED and counted past it. */
export class RefusedList {
  private readonly listed: RefusedFile[] = [];
  private more = 0;

  add(where: string, reason: string): void {
    if (this.listed.length < REFUSED_LISTED) this.listed.push({ path: where.length > 300 ? `${where.slice(0, 300)}...` : where, reason });
    else this.more++;
  }

  /** The list for trial.json (empty when nothing was refused). */
  entries(): RefusedFile[] {
    return this.more ? [...this.listed, { path: '...', reason: `${this.more} more refused` }] : [...this.listed];
  }
}

/** Why a name relative to a collected folder is not taken, or undefined for a plain relative name. */
export function nameProblem(name: string): string | undefined {
  if (!name) return 'empty name';
  if (name.includes('\0')) return 'NUL in the name';
  if (name.startsWith('/')) return 'absolute name';
  const parts = name.split('/');
  if (parts.includes('..')) return "'..' in the name";
  if (parts.some((p) => p === '' || p === '.')) return 'not a plain relative name';
  if (Buffer.byteLength(name) > 1024 || parts.some((p) => Buffer.byteLength(p) > 255)) return 'name too long';
  return undefined;
}

type Asked = Pick<TrialWork, 'collectFiles' | 'collectDirs' | 'limits'>;

/**
 * The result reduced to what the work asked for: its files (absent ones null) and folders under names
 * that stay inside them, each cut at the work's limits (a cut is listed as the sandbox's cuts are), the
 * output streams cut at the log limit, and only the sandbox's cuts that name a kept file.
 */
export function acceptResult(work: Asked, result: TrialWorkResult, refused: RefusedList): TrialWorkResult {
  const hostCuts: TrialWorkResult['cuts'] = [];
  const files: TrialWorkResult['files'] = {};
  for (const name of work.collectFiles) files[name] = null;
  for (const [name, content] of Object.entries(result.files)) {
    if (!work.collectFiles.includes(name)) {
      refused.add(name, 'file not asked for');
      continue;
    }
    if (content && content.length > work.limits.fileBytes) {
      const kept = utf8Prefix(content, work.limits.fileBytes);
      hostCuts.push({ path: name, size: content.length, kept: kept.length });
      files[name] = kept;
    } else files[name] = content;
  }

  const dirs: TrialWorkResult['dirs'] = {};
  const kept = new Set<string>();
  let count = 0;
  for (const [dir, entries] of Object.entries(result.dirs)) {
    if (!work.collectDirs.includes(dir)) {
      refused.add(`${dir}/`, 'folder not asked for');
      continue;
    }
    dirs[dir] = {};
    for (const [name, content] of Object.entries(entries)) {
      const where = `${dir}/${name}`;
      const problem = nameProblem(name) ?? (++count > COLLECTED_FILES_LIMIT ? `more than ${COLLECTED_FILES_LIMIT} files` : undefined);
      if (problem) {
        refused.add(where, problem);
        continue;
      }
      if (content.length > work.limits.logBytes + MARKER_ROOM) {
        const part = content.subarray(0, work.limits.logBytes);
        hostCuts.push({ path: where, size: content.length, kept: part.length });
        dirs[dir][name] = Buffer.concat([part, Buffer.from(cutMarker(content.length, part.length))]);
      } else dirs[dir][name] = content;
      kept.add(where);
    }
  }

  const stream = (name: 'stdout' | 'stderr'): Buffer => {
    const bytes = result[name];
    if (bytes.length <= work.limits.logBytes) return bytes;
    hostCuts.push({ path: name, size: bytes.length, kept: work.limits.logBytes });
    return bytes.subarray(0, work.limits.logBytes);
  };
  const stdout = stream('stdout');
  const stderr = stream('stderr');
  const cutByHost = new Set(hostCuts.map((c) => c.path));
  const named = (where: string): boolean => where === 'stdout' || where === 'stderr' || work.collectFiles.includes(where) || kept.has(where);
  const cuts = [...result.cuts.filter((c) => named(c.path) && !cutByHost.has(c.path)), ...hostCuts];
  return { ...result, files, dirs, stdout, stderr, cuts };
}

/**
 * Writes the accepted folders below agentDir, each as agent/<its last name>/: a folder whose name is
 * taken (stdout.log, another folder's) is refused whole; a file that clashes with another (a file where a
 * folder is, twice the same name) or would land outside its folder once real paths are resolved is refused.
 * Files are created, never opened over an existing one. A write the host refuses otherwise (a full disk) throws.
 */
export function writeCollectedDirs(agentDir: string, dirs: TrialWorkResult['dirs'], refused: RefusedList): void {
  const root = realpathSync(agentDir);
  const taken = new Set(HARNESS_NAMES_IN_AGENT_DIR);
  for (const [dir, files] of Object.entries(dirs)) {
    const name = path.posix.basename(dir);
    if (nameProblem(name) || taken.has(name)) {
      refused.add(`${dir}/`, `its folder name ${JSON.stringify(name)} is not free in agent/`);
      continue;
    }
    taken.add(name);
    const folder = path.join(root, name);
    try {
      // Made here, never reused: whatever is already there (a file, a link) is not this folder.
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      refused.add(`${dir}/`, `its folder name ${JSON.stringify(name)} is not free in agent/`);
      continue;
    }
    for (const [relative, content] of Object.entries(files)) {
      const problem = writeInside(folder, relative, content);
      if (problem) refused.add(`${dir}/${relative}`, problem);
    }
  }
}

function writeInside(folder: string, relative: string, content: Buffer): string | undefined {
  const target = path.join(folder, relative);
  try {
    mkdirSync(path.dirname(target), { recursive: true });
    const within = path.relative(folder, realpathSync(path.dirname(target)));
    if (within === '..' || within.startsWith(`..${path.sep}`) || path.isAbsolute(within)) return 'leaves its folder';
    writeFileSync(target, content, { flag: 'wx' });
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (CLASH_CODES.has(code)) return `clashes with another collected file (${code})`;
    throw error;
  }
}
