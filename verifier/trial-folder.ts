import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { pyReadText } from '../python/index.js';

/**
 * The trial folder: everything needed to re-score a trial offline.
 *
 *   <job folder>/<trial id>/
 *     trial.json       what ran, its status and timings (TrialRecord)
 *     leg.json         the leg, byte for byte as loaded
 *     instruction.md   what the agent was told
 *     answer.txt       the agent's /app/answer.txt, when it wrote one
 *     tool_log.jsonl   every tool call, written on the host by the gateway
 *     model_log.jsonl  every model request, when the agent used the model gateway
 *     agent/           the agent's own logs
 *     score.json       the score (TrialScore)
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
  agentDir: 'agent',
  score: 'score.json',
} as const;

export const PARTIAL_DIR = '.partial';
export const TRIAL_FORMAT = 'aar-harness/trial@1';

export const TRIAL_STATUSES = ['completed', 'timed_out', 'agent_error', 'infra_error'] as const;
export type TrialStatus = (typeof TRIAL_STATUSES)[number];

const nullableNumber = z.number().nullable().default(null);

export const TrialRecordSchema = z.looseObject({
  format: z.literal(TRIAL_FORMAT),
  trial_id: z.string(),
  job: z.string(),
  agent: z.looseObject({ id: z.string(), name: z.string(), model: z.string().nullable().default(null), version: z.string().nullable().default(null) }),
  leg: z.looseObject({ id: z.string(), variant: z.string(), level: z.string(), file: z.string(), sha256: z.string() }),
  attempt: z.number().int().min(1),
  /** completed: the agent ended by itself; timed_out: killed at the timeout; agent_error: the agent failed;
   * infra_error: the harness could not run the trial (not scored, retried on resume). */
  status: z.enum(TRIAL_STATUSES),
  error: z.string().nullable().default(null),
  started_at: z.string(),
  finished_at: z.string(),
  timings: z.looseObject({ total_s: z.number(), agent_s: nullableNumber, overhead_s: nullableNumber }),
  step_budget: z.number().int(),
  run: z
    .looseObject({
      steps: nullableNumber,
      step_limit_hit: z.boolean().nullable().default(null),
      exit_code: nullableNumber,
      input_tokens: nullableNumber,
      output_tokens: nullableNumber,
      cached_tokens: nullableNumber,
      cost_usd: nullableNumber,
    })
    .default({ steps: null, step_limit_hit: null, exit_code: null, input_tokens: null, output_tokens: null, cached_tokens: null, cost_usd: null }),
  seed: z.number().nullable().default(null),
  harness_version: z.string(),
});
export type TrialRecord = z.infer<typeof TrialRecordSchema>;
export type TrialRecordInput = z.input<typeof TrialRecordSchema>;

/** The text of an optional file in a trial folder, read as Python's read_text() would; null when absent. */
export function readTrialText(dir: string, name: string): string | null {
  return readOptionalText(path.join(dir, name));
}

/** A file's text as Python's read_text() gives it (universal newlines); null when the file does not exist. */
export function readOptionalText(file: string): string | null {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    return pyReadText(bytes);
  } catch {
    // Not UTF-8 (the reference would crash): keep going with replacement characters.
    return new TextDecoder('utf-8').decode(bytes).replace(/\r\n?/g, '\n');
  }
}

export function readTrialRecord(dir: string): TrialRecord {
  const file = path.join(dir, TRIAL_FILES.record);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
  const parsed = TrialRecordSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** Trial folders of a job, sorted: every sub-folder holding a trial.json (the .partial area is skipped). */
export function listTrialDirs(jobDir: string): string[] {
  if (!existsSync(jobDir)) throw new Error(`${jobDir}: no such job folder`);
  return readdirSync(jobDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.') && existsSync(path.join(jobDir, e.name, TRIAL_FILES.record)))
    .map((e) => path.join(jobDir, e.name))
    .sort();
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

/** Removes half-written trial folders left by a run that was killed. */
export function clearPartialTrials(jobDir: string): void {
  rmSync(path.join(jobDir, PARTIAL_DIR), { recursive: true, force: true });
}
