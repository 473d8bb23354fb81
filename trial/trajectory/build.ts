import { z } from 'zod';
import { LINE_TOO_LONG, type LogLine } from '../log-lines.js';
import { LOG_CUT_MARK } from '../tool-log.js';
import { readReply, readRequest, toolDefinitions, type RequestView } from './exchanges.js';
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

export function buildTrajectory(input: TrajectoryInput): AtifTrajectory {
  const problems: string[] = [];
  const badModel = { count: 0 };
  const badTool = { count: 0 };
  const modelLines = readLines(input.modelLog, 'model_log.jsonl', ModelLineSchema, problems, badModel).filter((l) => !l.api.endsWith('count-tokens'));
  const toolLines = readLines(input.toolLog, 'tool_log.jsonl', ToolLineSchema, problems, badTool);
  const events: Event[] = [
    ...modelLines.map((line, order) => ({ kind: 'model' as const, ts: line.ts, order, line })),
    ...toolLines.map((line, i) => ({ kind: 'tool' as const, ts: line.ts, order: modelLines.length + i, line, n: i + 1 })),
  ].sort((a, b) => a.ts - b.ts || a.order - b.order);

  const budget = new TextBudget();
  const steps: AtifStep[] = [];
  const push = (step: Omit<AtifStep, 'step_id'>): AtifStep => {
    const full = { step_id: steps.length + 1, ...step } as AtifStep;
    steps.push(full);
    return full;
  };
  const callOwner = new Map<string, AtifStep>();
  const answered = new Set<string>();
  let previous: string[] = [];
  let lastSystem: string | null = null;
  let tools: Record<string, unknown>[] | undefined;
  let toolsNote: string | undefined;

  if (!modelLines.length && input.instruction !== null) push({ source: 'user', message: budget.text(input.instruction), extra: { from: 'instruction.md' } });

  const addRequest = (view: RequestView, timestamp: string | undefined) => {
    if (view.system !== null && view.system !== lastSystem) push(defined({ source: 'system' as const, timestamp, message: budget.text((lastSystem = view.system)) }));
    const keys = view.messages.map((m) => (m ? m.said.map((s) => s.key).join('\u0000') + m.results.map((r) => r.callId).join('\u0000') : '(reply)'));
    let common = 0;
    while (common < previous.length && common < keys.length && previous[common] === keys[common]) common++;
    previous = keys;
    for (const message of view.messages.slice(Math.min(common, keys.length - 1))) {
      if (!message) continue;
      for (const said of message.said) {
        push(defined({ source: said.role, timestamp, message: budget.text(said.text) }));
      }
      for (const result of message.results) {
        const owner = callOwner.get(result.callId);
        if (owner && !answered.has(result.callId)) {
          answered.add(result.callId);
          (owner.observation ??= { results: [] }).results.push(defined({ source_call_id: result.callId, content: budget.text(result.text), extra: result.isError ? { is_error: true } : undefined }));
        } else if (!owner) {
          push({ source: 'user', message: budget.text(result.text), extra: { tool_result_for: result.callId, note: 'no reply in the model log made this call' } });
        }
      }
    }
  };

  for (const event of events) {
    const timestamp = iso(event.ts);
    if (event.kind === 'tool') {
      const line = event.line;
      const id = `tool_log_${event.n}`;
      push({
        source: 'agent',
        ...(timestamp ? { timestamp } : {}),
        message: budget.text(`${line.tool} (through the tool gateway)`),
        llm_call_count: 0,
        tool_calls: [{ tool_call_id: id, function_name: budget.text(line.tool), arguments: budget.args(typeof line.args === 'object' && line.args && !Array.isArray(line.args) ? (line.args as Record<string, unknown>) : { value: line.args ?? null }) }],
        observation: { results: [{ source_call_id: id, content: budget.text(typeof line.result_preview === 'string' ? line.result_preview : ''), extra: defined({ success: line.success === true, result_len: line.result_len, truncated: line.truncated, source: line.source, refused: line.refused, provider_error: line.provider_error }) }] },
        extra: { tool_log_line: event.n },
      });
      continue;
    }
    const line = event.line;
    if (line.tools !== undefined && tools === undefined) {
      const defs = toolDefinitions(line.tools);
      const size = (JSON.stringify(defs) ?? '').length;
      if (size <= TOOL_DEFINITIONS_MAX_CHARS) tools = defs;
      else toolsNote = `${defs.length} tool definitions (${size} characters as JSON) not kept: over ${TOOL_DEFINITIONS_MAX_CHARS}`;
    }
    if (line.request) addRequest(readRequest(line.request), iso(line.ts - (line.latency_ms ?? 0) / 1000));
    const reply = line.response === undefined ? null : readReply(line.response);
    const why = line.conversation_not_logged ?? (line.request ? undefined : 'the conversation was not recorded for this request');
    const message = reply?.text || (line.status !== 200 ? `[the model call ended with HTTP ${line.status}${line.error ? `: ${line.error}` : ''}]` : why ? `[${why}]` : '');
    const metrics = defined({ prompt_tokens: line.input_tokens, completion_tokens: line.output_tokens, cached_tokens: line.cached_tokens, cost_usd: line.cost_usd });
    const step = push(
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
    for (const call of step.tool_calls ?? []) callOwner.set(call.tool_call_id, step);
  }

  if (!steps.length) push({ source: 'system', message: 'no model call and no tool call was logged for this trial' });
  const { toolCalls = 0, modelRequests = 0 } = input.notLogged ?? {};
  if (toolCalls) problems.push(`${toolCalls} tool calls refused past the tool log's bound have no line (trial.json tool_log_bound)`);
  if (modelRequests) problems.push(`${modelRequests} model requests that were not turns (refused or uncounted) have no line past the model log's bound (trial.json model_log_bound)`);
  if (budget.cuts) problems.push(`${budget.cuts} texts cut (each at ${TEXT_MAX_CHARS} characters, all at ${TRAJECTORY_TEXT_MAX_CHARS})`);
  if (toolsNote) problems.push(toolsNote);
  const agentSteps = steps.filter((s) => s.llm_call_count === 1);
  const sum = (f: (s: AtifStep) => number | undefined) => agentSteps.reduce((acc, s) => acc + (f(s) ?? 0), 0);
  const costs = agentSteps.filter((s) => s.metrics?.cost_usd !== undefined);
  return {
    schema_version: ATIF_VERSION,
    session_id: input.trialId,
    agent: defined({ name: input.agent.name, version: input.agent.version, model_name: input.agent.model ?? undefined, tool_definitions: tools }),
    steps,
    ...(problems.length ? { notes: `Built by aar-harness from model_log.jsonl and tool_log.jsonl. ${problems.join('. ')}.` } : {}),
    final_metrics: defined({
      total_prompt_tokens: sum((s) => s.metrics?.prompt_tokens),
      total_completion_tokens: sum((s) => s.metrics?.completion_tokens),
      total_cached_tokens: sum((s) => s.metrics?.cached_tokens),
      total_cost_usd: costs.length ? Math.round(costs.reduce((acc, s) => acc + s.metrics!.cost_usd!, 0) * 1e9) / 1e9 : undefined,
      total_steps: steps.length,
      extra: {
        model_calls: modelLines.length,
        tool_calls: toolLines.length,
        model_log_lines_left_out: badModel.count,
        tool_log_lines_left_out: badTool.count,
        ...(toolCalls ? { tool_calls_not_logged: toolCalls } : {}),
        ...(modelRequests ? { model_requests_not_logged: modelRequests } : {}),
      },
    }),
    extra: { trial_id: input.trialId, producer: 'aar-harness' },
  };
}
