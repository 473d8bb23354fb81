import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { TRIAL_FILES, TRIAL_FORMAT } from './folder.js';
import { RecordedRunSchema } from './run-facts.js';

export const TRIAL_STATUSES = ['completed', 'timed_out', 'agent_error', 'infra_error'] as const;
export type TrialStatus = (typeof TRIAL_STATUSES)[number];

const nullableNumber = z.number().nullable().default(null);

const LegIdentitySchema = z.looseObject({ id: z.string(), file: z.string(), sha256: z.string() });
/**
 * trial.json's `leg`: its id, file and sha256, and the family's own fields (its slice keys, tasks/family.ts)
 * kept in the order written, so a record read and written again has the same bytes.
 */
const LegRefSchema = z
  .record(z.string(), z.unknown())
  .check((ctx) => {
    const checked = LegIdentitySchema.safeParse(ctx.value);
    if (!checked.success) for (const issue of checked.error.issues) ctx.issues.push({ ...issue, input: ctx.value } as never);
  })
  .transform((leg) => leg as z.infer<typeof LegIdentitySchema>);

/** trial.json: what ran, its status and timings. Fields this version does not know are kept as they are. */
export const TrialRecordSchema = z.looseObject({
  format: z.literal(TRIAL_FORMAT),
  /** The task family that scores the trial; absent: aar (its records never carried one). */
  family: z.string().optional(),
  trial_id: z.string(),
  job: z.string(),
  /** `uses_model`: whether the agent's model traffic goes through the gateway (its `run.steps` are then model calls, else
   * the agent's own count of steps); absent in records older than the field (agentUsesModel). */
  agent: z.looseObject({ id: z.string(), name: z.string(), model: z.string().nullable().default(null), version: z.string().nullable().default(null), uses_model: z.boolean().optional() }),
  leg: LegRefSchema,
  attempt: z.number().int().min(1),
  /** completed: the agent ended by itself; timed_out: killed at the timeout; agent_error: the agent failed;
   * infra_error: the harness could not run the trial (not scored, retried on resume). */
  status: z.enum(TRIAL_STATUSES),
  error: z.string().nullable().default(null),
  started_at: z.string(),
  finished_at: z.string(),
  /** agent_s is the harness's clock; container_reported_agent_s (when present) is what the sandbox said of itself, untrusted. */
  timings: z.looseObject({
    total_s: z.number(),
    agent_s: nullableNumber,
    overhead_s: nullableNumber,
    container_reported_agent_s: z.number().optional(),
    /** When each phase began and ended on the harness's clock (absent in older records): setup (staging, the
     * gateway's registration, the sandbox started), agent (the work handed over until its result came back),
     * collect (outputs taken, sandbox removed, files recorded: until finished_at) and scoring (after it). */
    phases: z.record(z.string(), z.object({ started_at: z.string(), finished_at: z.string() })).optional(),
  }),
  step_budget: z.number().int(),
  /** Where the trial ran: the environment (docker, swarm) and the machine or cluster node. */
  environment: z.looseObject({ name: z.string(), node: z.string().nullable().default(null) }).optional(),
  run: RecordedRunSchema,
  seed: z.number().nullable().default(null),
  harness_version: z.string(),
  /** Files copied out of the sandbox that were over their limit and cut (copy-limits.ts); absent when none was.
   * `blank`: bytes of whitespace around an answer that were dropped (they change nothing once it is stripped). */
  cut_files: z.array(z.looseObject({ file: z.string(), size: z.number(), kept: z.number(), blank: z.number().optional() })).optional(),
  /** What the sandbox handed back that the harness did not take (a file or folder not asked for, a name
   * leaving its folder, two names clashing): the sandbox path and why; absent when nothing was refused. */
  refused_files: z.array(z.looseObject({ path: z.string(), reason: z.string() })).optional(),
  /** Infrastructure errors met and retried before this outcome (absent in records older than the field). */
  infra_retries: z.number().int().min(0).optional(),
  /** The first line of each of those errors, oldest first. */
  infra_retry_errors: z.array(z.string()).optional(),
  /**
   * The seal: sha256 (hex) of every file the harness wrote in the trial folder but trial.json, by path relative
   * to it (file-hashes.ts). Written last, so score.json is in it. Absent in folders written before seals
   * existed: `aar verify` then checks leg.json against `leg.sha256` only.
   */
  file_sha256: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)).optional(),
  /** The tool log reached a per-trial bound (trial/tool-log.ts): which, and how many calls were then refused
   * without a line (the first refused one is logged); absent when no bound was reached. */
  tool_log_bound: z.looseObject({ reached: z.enum(['calls', 'bytes']), calls_not_logged: z.number().int() }).optional(),
  /** The model log reached its bound of lines for requests that are not turns (refused over the budget, refused as
   * malformed, count_tokens): the bound, how many such requests came past it without a line, and of which kind
   * (harness/gateway/bounds.ts); absent when the bound was not reached. */
  model_log_bound: z
    .looseObject({ other_lines_max: z.number().int(), requests_not_logged: z.number().int(), by_kind: z.record(z.string(), z.number().int()).default({}) })
    .optional(),
  /** Requests the gateway refused from their headers, their bodies unread, because the trial was over a limit
   * (harness/gateway/request-limits.ts): by route (tools, model) and reason (in_flight, too_large,
   * bytes_in_flight); absent when none was. */
  requests_refused: z.record(z.string(), z.record(z.string(), z.number().int())).optional(),
  /** Model calls the model API answered with an error (not the budget's refusals): how many, and the last one's
   * status and the API's own message (e.g. a context-length error: why a framework on too small a model stopped). */
  model_errors: z.looseObject({ calls: z.number().int(), last_status: z.number().int(), last_message: z.string() }).optional(),
});
export type TrialRecord = z.infer<typeof TrialRecordSchema>;

/** The built-in agents that play without a model: the oracle and the random baseline. */
export const BASELINE_AGENTS: readonly string[] = ['oracle', 'random'];

/**
 * Whether a trial's agent used a model (its run's steps are model calls): trial.json's `agent.uses_model`;
 * for records older than the field, false for the built-in baselines and null (unknown) for the others.
 */
export function agentUsesModel(record: Pick<TrialRecord, 'agent'>): boolean | null {
  return record.agent.uses_model ?? (BASELINE_AGENTS.includes(record.agent.name) ? false : null);
}
export type TrialRecordInput = z.input<typeof TrialRecordSchema>;

/** trial.json's text for a record. */
export function trialRecordJson(record: TrialRecord): string {
  return JSON.stringify(record, null, 2) + '\n';
}

/** A JSON file checked by a schema; a bad file is one error naming the file and the field. */
export function readJsonFile<S extends z.ZodType>(file: string, schema: S): z.infer<S> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  return parsed.data;
}

/** The same schema with zod's generated fast path: `aar verify` and reports read thousands of records. */
const compiledTrialRecordSchema = z.compile(TrialRecordSchema);

export function readTrialRecord(dir: string): TrialRecord {
  return readJsonFile(path.join(dir, TRIAL_FILES.record), compiledTrialRecordSchema);
}
