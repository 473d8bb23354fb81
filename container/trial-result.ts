import { closeSync, constants, fstatSync, lstatSync, openSync, readdirSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { AnswerCopy, cutMarker, type CopiedFile } from '../trial/copy-limits.js';
import type { CutWire, TrialWorkWire } from '../trial/handover.js';

/** What to bring back, as the work names it. */
export type CollectSpec = Pick<TrialWorkWire, 'collect_files' | 'collect_dirs' | 'limits'>;

/** The command's output as kept in memory (empty when it was echoed live), and how much it wrote in all. */
export interface Output {
  stdout: Buffer;
  stderr: Buffer;
  stdoutSize: number;
  stderrSize: number;
}

export interface Collected {
  files: Record<string, string | null>;
  dirs: Record<string, Record<string, string>>;
  stdout: Buffer;
  stderr: Buffer;
  cuts: CutWire[];
}

/** Most bytes one result carries before base64: base64 and JSON keep it under the gateway's 96 MiB body limit. */
export const RESULT_BUDGET = 64 * 1024 * 1024;

/** The first `max` bytes of a regular file (never more read) and its whole size; null when it is absent, not a regular file, or a link. */
function head(file: string, max: number): { bytes: Buffer; size: number } | null {
  try {
    if (!lstatSync(file).isFile()) return null;
    // Not followed if it became a link since: a log file never brings back a file outside its folder.
    const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      const stat = fstatSync(fd);
      if (!stat.isFile()) return null;
      const size = stat.size;
      const bytes = Buffer.alloc(Math.min(size, max));
      let at = 0;
      for (let n = 1; at < bytes.length && n > 0; at += n) n = readSync(fd, bytes, at, bytes.length - at, at);
      return { bytes: bytes.subarray(0, at), size };
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** An answer file as AnswerCopy keeps it, read in pieces until it has enough; null when it is absent or not a regular file. */
function answerCopy(file: string, limit: number): CopiedFile | null {
  try {
    if (!lstatSync(file).isFile()) return null;
    const fd = openSync(file, 'r');
    try {
      const size = fstatSync(fd).size;
      const copy = new AnswerCopy(limit);
      const buffer = Buffer.alloc(64 * 1024);
      for (let at = 0, n = 1; n > 0; at += n) {
        n = readSync(fd, buffer, 0, buffer.length, at);
        if (n > 0 && !copy.push(Buffer.from(buffer.subarray(0, n)))) break;
      }
      return copy.result(size);
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/**
 * The regular files under a folder, as paths relative to it: links are neither followed nor listed (Node's
 * recursive readdir follows a link to a folder), so nothing outside the folder is reached.
 */
export function regularFilesUnder(root: string): string[] {
  const found: string[] = [];
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const name = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(name);
      else if (entry.isFile()) found.push(name);
    }
  };
  walk('');
  return found;
}

/**
 * What a result carries, within RESULT_BUDGET, in this order: the collected files (the answer, without the
 * whitespace around it, cut where no UTF-8 character is split), the output streams (shared evenly when both are long), and the files of the log
 * folders (each cut at the log limit with a marker line, as the archive copy does; a file that no longer fits
 * is left out). Every cut and every file left out (kept 0) is listed.
 */
export function collectResult(spec: CollectSpec, output: Output): Collected {
  let room = RESULT_BUDGET;
  const cuts: CutWire[] = [];
  const files: Record<string, string | null> = {};
  for (const file of spec.collect_files) {
    const found = answerCopy(file, spec.limits.file_bytes);
    if (!found) {
      files[file] = null;
      continue;
    }
    if (found.cut) cuts.push({ path: file, ...found.cut });
    files[file] = found.content.toString('base64');
    room -= found.content.length;
  }

  const stdoutKept = Math.min(output.stdout.length, Math.max(Math.floor(room / 2), room - output.stderr.length));
  const stderrKept = Math.min(output.stderr.length, room - stdoutKept);
  room -= stdoutKept + stderrKept;
  if (output.stdoutSize > stdoutKept && output.stdout.length) cuts.push({ path: 'stdout', size: output.stdoutSize, kept: stdoutKept });
  if (output.stderrSize > stderrKept && output.stderr.length) cuts.push({ path: 'stderr', size: output.stderrSize, kept: stderrKept });

  const dirs: Record<string, Record<string, string>> = {};
  for (const dir of spec.collect_dirs) {
    dirs[dir] = {};
    let entries;
    try {
      // A folder that is a link, or reached through one, is not the folder asked for: nothing of it comes back.
      if (!lstatSync(dir).isDirectory() || realpathSync(dir) !== path.resolve(dir)) continue;
      entries = regularFilesUnder(dir);
    } catch {
      continue;
    }
    for (const relative of entries) {
      const full = path.join(dir, relative);
      const found = head(full, spec.limits.log_bytes);
      if (!found) continue;
      const cut = found.size > found.bytes.length;
      const content = cut ? Buffer.concat([found.bytes, Buffer.from(cutMarker(found.size, found.bytes.length))]) : found.bytes;
      if (content.length > room) {
        cuts.push({ path: full, size: found.size, kept: 0 });
        continue;
      }
      if (cut) cuts.push({ path: full, size: found.size, kept: found.bytes.length });
      dirs[dir][path.relative(dir, full)] = content.toString('base64');
      room -= content.length;
    }
  }
  return { files, dirs, stdout: output.stdout.subarray(0, stdoutKept), stderr: output.stderr.subarray(0, stderrKept), cuts };
}
