import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pyReadText, pyUniversalNewlines } from '../pycompat/index.js';

/**
 * The trial folder: everything needed to re-score a trial offline.
 *
 *   <job folder>/<trial id>/
 *     trial.json       what ran, its status and timings (TrialRecord, record.ts); written last, with the
 *                      sha256 of every other file (file-hashes.ts)
 *     leg.json         the leg, byte for byte as loaded
 *     instruction.md   what the agent was told
 *     answer.txt       the agent's /app/answer.txt, when it wrote one
 *     tool_log.jsonl   every tool call, written on the host by the gateway (ToolLogLine, tool-log.ts)
 *     model_log.jsonl  every model request, when the agent used the model gateway
 *     trajectory.json  the conversation and tool calls in time order, in ATIF (trajectory/, built on the host
 *                      from the two logs after the run; no score reads it)
 *     agent/           the agent's own logs
 *     score.json       the score (TrialScore)
 *     score.prev.json  the score `aar verify --fix` replaced, if it replaced one
 *     ...              the files the task family adds (its declaration's trialFiles: WikiRace's trajectory.jsonl)
 *
 * A folder is complete or absent: it is built under <job>/.partial/ and renamed into place.
 */
export const TRIAL_FILES = {
  record: 'trial.json',
  leg: 'leg.json',
  instruction: 'instruction.md',
  answer: 'answer.txt',
  toolLog: 'tool_log.jsonl',
  modelLog: 'model_log.jsonl',
  trajectory: 'trajectory.json',
  agentDir: 'agent',
  score: 'score.json',
} as const;

export const PARTIAL_DIR = '.partial';
/** The job's record (its config and fingerprint), beside its trial folders: harness/jobs/job-file.ts writes it. */
export const JOB_FILE = 'job.json';
/** The version of this contract, in every trial.json's `format`. */
export const TRIAL_FORMAT = 'aar-harness/trial@1';


/** The text of an optional file in a trial folder, read as Python's read_text() would; null when absent. */
export function readTrialText(dir: string, name: string): string | null {
  return readOptionalText(path.join(dir, name));
}

/**
 * A file's text as Python's read_text() gives it (universal newlines); null when the file does not exist. Any
 * other failure (a folder, a file too large for a string) is one line naming the file.
 */
export function readOptionalText(file: string): string | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') return null;
    if (e.code === 'EISDIR') e.message = 'a folder, not a file';
    else if (e.code === 'ERR_STRING_TOO_LONG') e.message = `too large to read as text (${e.message})`;
    if (!e.message.includes(file)) e.message = `${file}: ${e.message}`;
    throw e;
  }
  // Node's one-call reading gives the strict reading's text for every valid UTF-8 file; it writes U+FFFD for
  // bytes that are not UTF-8, so only a file that shows one is read again as bytes, strictly.
  if (!text.includes('\uFFFD')) return pyUniversalNewlines(text);
  const bytes = readFileSync(file);
  try {
    return pyReadText(bytes);
  } catch {
    // Not UTF-8 (the reference would crash): keep going with replacement characters.
    return pyUniversalNewlines(new TextDecoder('utf-8').decode(bytes));
  }
}

/** Trial folders of a job, sorted: every sub-folder holding a trial.json (the .partial area is skipped). */
export function listTrialDirs(jobDir: string): string[] {
  if (!existsSync(jobDir)) throw new Error(`${jobDir}: no such job folder`);
  if (!statSync(jobDir).isDirectory()) {
    throw new Error(`${jobDir} is a file, not a job folder: give the folder that holds the job's trials${path.basename(jobDir) === 'job.json' ? ` (${path.dirname(jobDir)})` : ''}`);
  }
  return readdirSync(jobDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && existsSync(path.join(jobDir, e.name, TRIAL_FILES.record)))
    .map((e) => path.join(jobDir, e.name))
    .sort();
}

/**
 * The trial folders of a folder given as a job: one line saying what was found instead when it is a single
 * trial's folder or holds no trial at all (a command over it would do nothing and look like success).
 */
export function requireTrialDirs(jobDir: string): string[] {
  if (existsSync(path.join(jobDir, TRIAL_FILES.record))) {
    throw new Error(`${jobDir} is one trial's folder, not a job folder: give its job folder (${path.dirname(path.resolve(jobDir))})`);
  }
  const dirs = listTrialDirs(jobDir);
  if (!dirs.length) {
    const isJob = existsSync(path.join(jobDir, JOB_FILE));
    throw new Error(`${jobDir}: ${isJob ? 'a job folder with no finished trial yet' : 'not a job folder (no job.json and no trial folder holding a trial.json)'}`);
  }
  return dirs;
}

/** The files of one trial, by name relative to the trial folder (e.g. `agent/stdout.txt`). */
export type TrialFiles = Record<string, string | Uint8Array>;

/** A trial folder being built under <job>/.partial/, not yet visible as a trial. */
export function createStaging(jobDir: string, trialId: string): string {
  const partialRoot = path.join(jobDir, PARTIAL_DIR);
  mkdirSync(partialRoot, { recursive: true });
  return mkdtempSync(path.join(partialRoot, `${trialId}-`));
}

export function writeFiles(dir: string, files: TrialFiles): void {
  for (const [name, content] of Object.entries(files)) {
    const file = path.join(dir, name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

/**
 * Renames a staged folder into place, so a reader (or a resumed run) sees either the whole trial folder
 * or none of it. An existing folder of the same trial (an infrastructure error being retried) is replaced.
 */
export function commitStaging(jobDir: string, trialId: string, staging: string): string {
  const target = path.join(jobDir, trialId);
  if (existsSync(target)) {
    const old = `${staging}.replaced`;
    renameSync(target, old);
    renameSync(staging, target);
    rmSync(old, { recursive: true, force: true });
  } else {
    renameSync(staging, target);
  }
  return target;
}

/** Writes a whole trial folder atomically (staged, then renamed into place). */
export function writeTrialFolder(jobDir: string, trialId: string, files: TrialFiles): string {
  const staging = createStaging(jobDir, trialId);
  writeFiles(staging, files);
  return commitStaging(jobDir, trialId, staging);
}

/**
 * True when the folder is a job's: it holds a job.json, or a trial folder (a job whose job.json was removed
 * to resume it without the configuration check). A folder that is neither is someone's files.
 */
export function isJobFolder(dir: string): boolean {
  if (existsSync(path.join(dir, JOB_FILE))) return true;
  try {
    return readdirSync(dir, { withFileTypes: true }).some((e) => e.isDirectory() && !e.name.startsWith('.') && existsSync(path.join(dir, e.name, TRIAL_FILES.record)));
  } catch {
    return false;
  }
}

/**
 * Removes half-written trial folders left by a run that was killed. Only in a job folder: a `.partial` in
 * any other folder is not the harness's, and is left alone (returns false then).
 */
export function clearPartialTrials(jobDir: string): boolean {
  if (!isJobFolder(jobDir)) return false;
  rmSync(path.join(jobDir, PARTIAL_DIR), { recursive: true, force: true });
  return true;
}
