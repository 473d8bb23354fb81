import { z } from 'zod';
import { LINE_TOO_LONG, type LogLine } from '../log-lines.js';
import { LOG_CUT_MARK } from '../tool-log.js';
import { toolDefinitions, type RequestView } from './exchanges.js';
import { transcriptReader } from './readers.js';
import { ATIF_VERSION, type AtifStep, type AtifTrajectory } from './schema.js';

/**
 * Builds a trial's ATIF trajectory on the host from its model log and tool log, in time order: a system step
 * for each new system prompt, a user step for each new message of a request, an agent step for each model
 * reply (its tool calls, their results from later requests matched by call id, its tokens and cost), and an
 * agent step with no model call (llm_call_count 0) for each call the tool gateway logged, its result beside
 * it. A built-in agent (no model log) gets the instruction, then its tool calls. The logs' text came from the
 * container: every line is checked, a line that cannot be read is counted and named in `notes` (never an
 * error), each text is cut at TEXT_MAX_CHARS and the whole at TRAJECTORY_TEXT_MAX_CHARS.
 */
export const TEXT_MAX_CHARS = 64 * 1024;
export const ARGS_MAX_CHARS = 16 * 1024;
export const TRAJECTORY_TEXT_MAX_CHARS = 8 * 1024 * 1024;
export const TOOL_DEFINITIONS_MAX_CHARS = 256 * 1024;
/** Lines read of each log: past them a log (one written before the gateway bounded its logs) is only counted. */
export const LOG_LINES_READ_MAX = 10_000;
const NOTES_MAX = 5;

/** Requests the gateway counted without a log line (trial.json's `tool_log_bound` and `model_log_bound`). */
export interface NotLogged {
  toolCalls?: number;
  modelRequests?: number;
}

export interface TrajectoryInput {
  trialId: string;
  agent: { name: string; version: string; model: string | null };
  /** instruction.md: the first step when the agent made no model call. */
  instruction: string | null;
  modelLog: Iterable<LogLine> | null;
  toolLog: Iterable<LogLine> | null;
  notLogged?: NotLogged;
}

/** A model log line's fields the trajectory uses; anything else may be there. */
const ModelLineSchema = z.looseObject({
  ts: z.number(),
  api: z.string(),
  model: z.string().nullish(),
  status: z.number(),
  turn: z.number().nullish(),
  input_tokens: z.number().int().nullish(),
  output_tokens: z.number().int().nullish(),
  cached_tokens: z.number().int().nullish(),
  cache_write_tokens: z.number().int().nullish(),
  cost_usd: z.number().nullish(),
  latency_ms: z.number().nullish(),
  attempts: z.number().nullish(),
  error: z.string().optional(),
  note: z.string().optional(),
  conversation_not_logged: z.string().optional(),
  request: z.record(z.string(), z.unknown()).optional(),
  response: z.unknown().optional(),
  tools: z.unknown().optional(),
});
const ToolLineSchema = z.looseObject({
  tool: z.string(),
  args: z.unknown().optional(),
  ts: z.number(),
  success: z.unknown().optional(),
  result_preview: z.unknown().optional(),
  result_len: z.unknown().optional(),
});
type ModelLine = z.infer<typeof ModelLineSchema>;
type ToolLine = z.infer<typeof ToolLineSchema>;

type Event = { ts: number; order: number } & ({ kind: 'model'; line: ModelLine } | { kind: 'tool'; line: ToolLine; n: number });

/** Reads one log's lines (the first LOG_LINES_READ_MAX); those that are not what they should be are counted in `problems`. */
function readLines<T>(lines: Iterable<LogLine> | null, file: string, schema: z.ZodType<T>, problems: string[], bad: { count: number }): T[] {
  const out: T[] = [];
  if (!lines) return out;
  let n = 0;
  let unread = 0;
  for (const line of lines) {
    n++;
    if (n > LOG_LINES_READ_MAX) {
      unread++;
      continue;
    }
    let why: string | null = null;
    if (line === LINE_TOO_LONG) why = 'too long to read';
    else {
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch {
        why = 'not JSON';
      }
      if (!why) {
        const parsed = schema.safeParse(value);
        if (parsed.success) out.push(parsed.data);
        else why = `${parsed.error.issues[0]?.path.join('.') || '(line)'}: ${parsed.error.issues[0]?.message}`;
      }
    }
    if (why) {
      bad.count++;
      if (problems.length < NOTES_MAX) problems.push(`${file} line ${n}: ${why}; left out`);
    }
  }
  if (unread) {
    bad.count += unread;
    problems.push(`${file}: ${unread} lines past the first ${LOG_LINES_READ_MAX} left out`);
  }
  return out;
}

/** Cuts texts (each, and all together) so no log can make the trajectory unbounded. */
class TextBudget {
  used = 0;
  cuts = 0;
  text(value: string): string {
    let out = value.length > TEXT_MAX_CHARS ? value.slice(0, TEXT_MAX_CHARS) + LOG_CUT_MARK : value;
    if (out !== value) this.cuts++;
    if (this.used + out.length > TRAJECTORY_TEXT_MAX_CHARS) {
      this.cuts++;
      out = `[not kept: the trajectory reached its cap of ${TRAJECTORY_TEXT_MAX_CHARS} characters]`;
    }
    this.used += out.length;
    return out;
  }
  args(args: Record<string, unknown>): Record<string, unknown> {
    const json = JSON.stringify(args) ?? '{}';
    if (json.length <= ARGS_MAX_CHARS && this.used + json.length <= TRAJECTORY_TEXT_MAX_CHARS) {
      this.used += json.length;
      return args;
    }
    return { cut_json: this.text(json.slice(0, ARGS_MAX_CHARS) + LOG_CUT_MARK) };
  }
}

const iso = (ts: number): string | undefined => (Number.isFinite(ts) && ts > 0 && ts < 1e11 ? new Date(ts * 1000).toISOString() : undefined);
/** The object without its null and undefined fields (ATIF leaves them out). */
type Defined<T> = { [K in keyof T]: Exclude<T[K], null> };
const defined = <T extends object>(o: T): Defined<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as Defined<T>;

/** The logs' lines, read and checked, merged in time order (a model line before a tool line at the same time). */
function readEvents(input: TrajectoryInput, problems: string[]) {
  const badModel = { count: 0 };
  const badTool = { count: 0 };
  const modelLines = readLines(input.modelLog, 'model_log.jsonl', ModelLineSchema, problems, badModel).filter((l) => !l.api.endsWith('count-tokens'));
  const toolLines = readLines(input.toolLog, 'tool_log.jsonl', ToolLineSchema, problems, badTool);
  const events: Event[] = [
    ...modelLines.map((line, order) => ({ kind: 'model' as const, ts: line.ts, order, line })),
    ...toolLines.map((line, i) => ({ kind: 'tool' as const, ts: line.ts, order: modelLines.length + i, line, n: i + 1 })),
  ].sort((a, b) => a.ts - b.ts || a.order - b.order);
  return { events, modelCalls: modelLines.length, toolCalls: toolLines.length, badModel: badModel.count, badTool: badTool.count };
}

/** The steps as they are written, event by event: a tool call's result goes to the step whose reply made it. */
class StepWriter {
  readonly budget = new TextBudget();
  readonly steps: AtifStep[] = [];
  tools: Record<string, unknown>[] | undefined;
  toolsNote: string | undefined;
  private readonly callOwner = new Map<string, AtifStep>();
  private readonly answered = new Set<string>();
  private readonly unread = new Set<string>();
  private previous: string[] = [];
  private lastSystem: string | null = null;

  constructor(private readonly problems: string[]) {}

  push(step: Omit<AtifStep, 'step_id'>): AtifStep {
    const full = { step_id: this.steps.length + 1, ...step } as AtifStep;
    this.steps.push(full);
    return full;
  }

  /** A step with no model call for one line of the tool gateway's log, its result beside it. */
  toolCall(line: ToolLine, n: number, timestamp: string | undefined): void {
    const budget = this.budget;
    const id = `tool_log_${n}`;
    this.push({
      source: 'agent',
      ...(timestamp ? { timestamp } : {}),
      message: budget.text(`${line.tool} (through the tool gateway)`),
      llm_call_count: 0,
      tool_calls: [{ tool_call_id: id, function_name: budget.text(line.tool), arguments: budget.args(typeof line.args === 'object' && line.args && !Array.isArray(line.args) ? (line.args as Record<string, unknown>) : { value: line.args ?? null }) }],
      observation: { results: [{ source_call_id: id, content: budget.text(typeof line.result_preview === 'string' ? line.result_preview : ''), extra: defined({ success: line.success === true, result_len: line.result_len, truncated: line.truncated, source: line.source, refused: line.refused, provider_error: line.provider_error }) }] },
      extra: { tool_log_line: n },
    });
  }

  /** One model log line: its request's new messages, then the agent step of its reply. */
  modelCall(line: ModelLine, timestamp: string | undefined): void {
    const budget = this.budget;
    if (line.tools !== undefined && this.tools === undefined) {
      const defs = toolDefinitions(line.tools);
      const size = (JSON.stringify(defs) ?? '').length;
      if (size <= TOOL_DEFINITIONS_MAX_CHARS) this.tools = defs;
      else this.toolsNote = `${defs.length} tool definitions (${size} characters as JSON) not kept: over ${TOOL_DEFINITIONS_MAX_CHARS}`;
    }
    const reader = transcriptReader(line.api);
    if (!reader && (line.request || line.response !== undefined) && !this.unread.has(line.api)) {
      this.unread.add(line.api);
      this.problems.push(`no transcript reader is registered for the model API '${line.api}': its exchanges are not read`);
    }
    if (line.request && reader) this.request(reader.request(line.request), iso(line.ts - (line.latency_ms ?? 0) / 1000));
    const reply = line.response === undefined || !reader ? null : reader.reply(line.response);
    const why = line.conversation_not_logged ?? (!reader ? `no transcript reader for the model API '${line.api}'` : line.request ? undefined : 'the conversation was not recorded for this request');
    const message = reply?.text || (line.status !== 200 ? `[the model call ended with HTTP ${line.status}${line.error ? `: ${line.error}` : ''}]` : why ? `[${why}]` : '');
    const metrics = defined({ prompt_tokens: line.input_tokens, completion_tokens: line.output_tokens, cached_tokens: line.cached_tokens, cost_usd: line.cost_usd });
    const step = this.push(
      defined({
        source: 'agent' as const,
        timestamp,
        model_name: line.model ?? undefined,
        message: budget.text(message),
        reasoning_content: reply?.reasoning ? budget.text(reply.reasoning) : undefined,
        tool_calls: reply?.calls.length ? reply.calls.map((c) => ({ tool_call_id: budget.text(c.id), function_name: budget.text(c.name), arguments: budget.args(c.args) })) : undefined,
        metrics: Object.keys(metrics).length ? metrics : undefined,
        llm_call_count: 1,
        extra: defined({ api: line.api, turn: line.turn, status: line.status, latency_ms: line.latency_ms, attempts: line.attempts, cache_write_tokens: line.cache_write_tokens, error: line.error, note: line.note, conversation_not_logged: line.conversation_not_logged }),
      }),
    );
    for (const call of step.tool_calls ?? []) this.callOwner.set(call.tool_call_id, step);
  }

  /** A request's system prompt if new, and its messages past those the previous request already had. */
  private request(view: RequestView, timestamp: string | undefined): void {
    const budget = this.budget;
    if (view.system !== null && view.system !== this.lastSystem) this.push(defined({ source: 'system' as const, timestamp, message: budget.text((this.lastSystem = view.system)) }));
    const keys = view.messages.map((m) => (m ? m.said.map((s) => s.key).join('\u0000') + m.results.map((r) => r.callId).join('\u0000') : '(reply)'));
    let common = 0;
    while (common < this.previous.length && common < keys.length && this.previous[common] === keys[common]) common++;
    this.previous = keys;
    for (const message of view.messages.slice(Math.min(common, keys.length - 1))) {
      if (!message) continue;
      for (const said of message.said) {
        this.push(defined({ source: said.role, timestamp, message: budget.text(said.text) }));
      }
      for (const result of message.results) {
        const owner = this.callOwner.get(result.callId);
        if (owner && !this.answered.has(result.callId)) {
          this.answered.add(result.callId);
          (owner.observation ??= { results: [] }).results.push(defined({ source_call_id: result.callId, content: budget.text(result.text), extra: result.isError ? { is_error: true } : undefined }));
        } else if (!owner) {
          this.push({ source: 'user', message: budget.text(result.text), extra: { tool_result_for: result.callId, note: 'no reply in the model log made this call' } });
        }
      }
    }
  }
}

export function buildTrajectory(input: TrajectoryInput): AtifTrajectory {
  const problems: string[] = [];
  const read = readEvents(input, problems);
  const writer = new StepWriter(problems);
  if (!read.modelCalls && input.instruction !== null) writer.push({ source: 'user', message: writer.budget.text(input.instruction), extra: { from: 'instruction.md' } });
  for (const event of read.events) {
    if (event.kind === 'tool') writer.toolCall(event.line, event.n, iso(event.ts));
    else writer.modelCall(event.line, iso(event.ts));
  }
  const steps = writer.steps;
  if (!steps.length) writer.push({ source: 'system', message: 'no model call and no tool call was logged for this trial' });
  const { toolCalls = 0, modelRequests = 0 } = input.notLogged ?? {};
  if (toolCalls) problems.push(`${toolCalls} tool calls refused past the tool log's bound have no line (trial.json tool_log_bound)`);
  if (modelRequests) problems.push(`${modelRequests} model requests that were not turns (refused or uncounted) have no line past the model log's bound (trial.json model_log_bound)`);
  if (writer.budget.cuts) problems.push(`${writer.budget.cuts} texts cut (each at ${TEXT_MAX_CHARS} characters, all at ${TRAJECTORY_TEXT_MAX_CHARS})`);
  if (writer.toolsNote) problems.push(writer.toolsNote);
  return {
    schema_version: ATIF_VERSION,
    session_id: input.trialId,
    agent: defined({ name: input.agent.name, version: input.agent.version, model_name: input.agent.model ?? undefined, tool_definitions: writer.tools }),
    steps,
    ...(problems.length ? { notes: `Built by aar-harness from model_log.jsonl and tool_log.jsonl. ${problems.join('. ')}.` } : {}),
    final_metrics: finalMetrics(steps, {
      model_calls: read.modelCalls,
      tool_calls: read.toolCalls,
      model_log_lines_left_out: read.badModel,
      tool_log_lines_left_out: read.badTool,
      ...(toolCalls ? { tool_calls_not_logged: toolCalls } : {}),
      ...(modelRequests ? { model_requests_not_logged: modelRequests } : {}),
    }),
    extra: { trial_id: input.trialId, producer: 'aar-harness' },
  };
}

/** The totals over the agent steps that called the model, with the counts of what was read and left out. */
function finalMetrics(steps: AtifStep[], extra: Record<string, number>): AtifTrajectory['final_metrics'] {
  const agentSteps = steps.filter((s) => s.llm_call_count === 1);
  const sum = (f: (s: AtifStep) => number | undefined) => agentSteps.reduce((acc, s) => acc + (f(s) ?? 0), 0);
  const costs = agentSteps.filter((s) => s.metrics?.cost_usd !== undefined);
  return defined({
    total_prompt_tokens: sum((s) => s.metrics?.prompt_tokens),
    total_completion_tokens: sum((s) => s.metrics?.completion_tokens),
    total_cached_tokens: sum((s) => s.metrics?.cached_tokens),
    total_cost_usd: costs.length ? Math.round(costs.reduce((acc, s) => acc + s.metrics!.cost_usd!, 0) * 1e9) / 1e9 : undefined,
    total_steps: steps.length,
    extra,
  });
}
