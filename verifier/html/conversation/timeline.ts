import { closeSync, openSync, readSync } from 'node:fs';
import { z } from 'zod';
import type { ChatMessage, ChatPart, Conversation, ModelStep, ToolStep } from '../model.js';
import { clip } from '../trial-tables.js';
import { requestMessages, responseMessage } from './messages.js';

/**
 * A trial's conversation for its page: the model turns of model_log.jsonl and the tool calls of
 * tool_log.jsonl, each log in its own order, merged by time (`ts`, seconds). Each turn shows only what is
 * new in its request (the messages after those the previous request held; the previous answer, sent back,
 * left out). Both logs come from the container's traffic: every field is checked, and the text kept is bounded.
 */

/** Characters of one part the page keeps (the rest is counted; the whole is in the raw file). */
export const PART_CHARS = 20_000;
/** Characters of message text one trial page keeps in all; past it each part keeps PART_CHARS_PAST_BOUND. */
export const TRIAL_TEXT_CHARS = 1_000_000;
const PART_CHARS_PAST_BOUND = 500;
/** Bytes of model_log.jsonl read (its writer caps the conversation at 32 MiB; counts-only lines follow). */
export const MODEL_LOG_READ_BYTES = 40 * 1024 * 1024;

const num = z.number().finite().nullable().optional().catch(null);
const ModelLine = z.looseObject({
  ts: num, turn: num, status: num, input_tokens: num, output_tokens: num, cached_tokens: num, cost_usd: num, latency_ms: num,
  model: z.string().nullable().optional().catch(null),
  error: z.string().optional().catch(undefined),
  note: z.string().optional().catch(undefined),
  budget_exceeded: z.boolean().optional().catch(undefined),
  conversation_not_logged: z.string().optional().catch(undefined),
  request: z.unknown().optional(),
  response: z.unknown().optional(),
  tools: z.unknown().optional(),
});

/**
 * The first `max` lines of model_log.jsonl (split on "\n" only: a message may hold U+2028), reading at most
 * MODEL_LOG_READ_BYTES, and how many lines that part holds.
 */
export function readModelLog(file: string, max: number): { lines: string[]; total: number } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return { lines: [], total: 0 };
  }
  try {
    const buffer = Buffer.alloc(Math.min(MODEL_LOG_READ_BYTES, 1024 * 1024));
    const chunks: Buffer[] = [];
    let read = 0;
    for (let n; read < MODEL_LOG_READ_BYTES && (n = readSync(fd, buffer, 0, Math.min(buffer.length, MODEL_LOG_READ_BYTES - read), read)) > 0; read += n) chunks.push(Buffer.from(buffer.subarray(0, n)));
    const all = Buffer.concat(chunks).toString('utf8').split('\n').filter((l) => l.trim());
    return { lines: all.slice(0, max), total: all.length };
  } finally {
    closeSync(fd);
  }
}

/** Text parts cut to the page's bound; `budget` is what the trial has left and shrinks as parts are kept. */
class TextBound {
  left = TRIAL_TEXT_CHARS;
  cutChars = 0;

  part(p: ChatPart): ChatPart {
    const max = this.left > 0 ? PART_CHARS : PART_CHARS_PAST_BOUND;
    const keep = Math.min(p.text.length, max);
    this.left -= keep;
    if (keep === p.text.length) return p;
    this.cutChars += p.text.length - keep;
    return { ...p, text: p.text.slice(0, keep), cut: p.text.length - keep };
  }

  message(m: ChatMessage): ChatMessage {
    return { role: m.role, parts: m.parts.map((p) => this.part(p)) };
  }

  /** A text kept whole up to the bound, else cut with a mark saying how much is left out. */
  text(s: string): string {
    const kept = this.part({ kind: 'text', text: s });
    return kept.cut ? `${kept.text} … (${kept.cut} more characters in the raw file)` : kept.text;
  }
}

const key = (m: ChatMessage): string => JSON.stringify(m);
const partKeys = (m: ChatMessage | null): Set<string> => new Set((m?.parts ?? []).map((p) => `${p.kind}:${p.name ?? ''}:${p.text}`));

function toolNames(tools: unknown): string[] | null {
  if (!Array.isArray(tools)) return null;
  return tools.map((t) => (typeof t === 'object' && t !== null ? String((t as { name?: unknown; function?: { name?: unknown } }).name ?? (t as { function?: { name?: unknown } }).function?.name ?? (t as { type?: unknown }).type ?? '?') : String(t)));
}

/** A log line read by its schema; null when it is not JSON or not of that shape (the logs come from the container). */
function parsedLine<T>(schema: z.ZodType<T>, line: string): T | null {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return null;
  }
  const parsed = schema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** The model turns of the log's lines, each with what is new in it. */
export function modelSteps(lines: readonly string[], bound = new TextBound()): ModelStep[] {
  let previous: { keys: string[]; system: string | null; answer: Set<string> } | null = null;
  return lines.map((line, i) => {
    const m = parsedLine(ModelLine, line);
    const recorded = m !== null && m.request !== undefined;
    const step: ModelStep = {
      kind: 'model', line: i + 1, ts: m?.ts ?? null, turn: m?.turn ?? null, model: m?.model ?? null, status: m?.status ?? null,
      input: m?.input_tokens ?? null, output: m?.output_tokens ?? null, cached: m?.cached_tokens ?? null, cost: m?.cost_usd ?? null, latency: m?.latency_ms ?? null,
      note: m ? [m.error, m.note, m.budget_exceeded ? 'budget exceeded: refused' : null, m.conversation_not_logged].filter(Boolean).join('; ') || null : 'an unreadable line',
      system: null, earlier: 0, fresh: false, messages: [], response: null, tools: null, recorded,
    };
    if (!m || !recorded) return step;
    const { system, messages } = requestMessages(m.request);
    const keys = messages.map(key);
    let same = 0;
    if (previous) while (same < keys.length && same < previous.keys.length && keys[same] === previous.keys[same]) same++;
    let start = same;
    // The previous answer as the agent sends it back: shown with that turn already.
    const answer = previous?.answer ?? new Set<string>();
    while (start < messages.length && messages[start].role === 'assistant' && messages[start].parts.every((p) => answer.has(`${p.kind}:${p.name ?? ''}:${p.text}`))) start++;
    step.earlier = same;
    step.fresh = previous !== null && same < previous.keys.length;
    if (system !== null && system !== previous?.system) {
      const kept = bound.part({ kind: 'text', text: system });
      step.system = kept.text;
      if (kept.cut) step.systemCut = kept.cut;
    }
    step.messages = messages.slice(start).map((msg) => bound.message(msg));
    const response = responseMessage(m.response);
    step.response = response && bound.message(response);
    step.tools = toolNames(m.tools);
    previous = { keys, system, answer: partKeys(response) };
    return step;
  });
}

const ToolLine = z.looseObject({
  ts: num, latency_ms: num,
  tool: z.unknown().optional(), args: z.unknown().optional(), success: z.unknown().optional(), result_preview: z.unknown().optional(),
  source: z.string().optional().catch(undefined),
  provider_error: z.string().optional().catch(undefined),
  resolved_url: z.string().optional().catch(undefined),
});
const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

/** The tool calls of the log's lines, with the family's note and the golden stops each served. */
export function toolSteps(lines: readonly string[], notes: readonly (string | null)[], stops: readonly (readonly number[])[], previewChars = Infinity, bound = new TextBound()): ToolStep[] {
  return lines.map((line, i) => {
    const c = parsedLine(ToolLine, line);
    const preview = c ? [c.provider_error ? `provider error: ${c.provider_error}` : null, c.resolved_url ? `→ ${c.resolved_url}` : null, clip(text(c.result_preview), previewChars)].filter(Boolean).join('\n') : '';
    return {
      kind: 'tool', n: i + 1, ts: c?.ts ?? null, tool: c ? text(c.tool) : '(unreadable line)', args: bound.text(c ? text(c.args) : line.slice(0, 200)),
      ok: c?.success === true, preview: bound.text(preview), latency: c?.latency_ms ?? null, source: c?.source ?? null, note: notes[i] ?? null, stops: [...(stops[i] ?? [])],
    };
  });
}

/** Both lists merged by time, each kept in its own order (a line without a time goes with the one before it). */
export function mergeByTime(models: readonly ModelStep[], tools: readonly ToolStep[]): (ModelStep | ToolStep)[] {
  const out: (ModelStep | ToolStep)[] = [];
  let i = 0;
  let j = 0;
  while (i < models.length || j < tools.length) {
    const a = models[i];
    const b = tools[j];
    if (!b || (a && (a.ts === null || b.ts === null || a.ts <= b.ts))) out.push(models[i++]);
    else out.push(tools[j++]);
  }
  return out;
}

export interface ConversationInput {
  modelLines: readonly string[];
  modelTotal: number;
  toolLines: readonly string[];
  toolTotal: number;
  notes: readonly (string | null)[];
  stops: readonly (readonly number[])[];
  /** Characters of each tool result preview kept (the log holds 2,000). */
  previewChars?: number;
}

export function buildConversation(input: ConversationInput): Conversation {
  const bound = new TextBound();
  const steps = mergeByTime(modelSteps(input.modelLines, bound), toolSteps(input.toolLines, input.notes, input.stops, input.previewChars, bound));
  const listed = input.modelTotal > input.modelLines.length || input.toolTotal > input.toolLines.length ? `the first ${input.modelLines.length} model turns and ${input.toolLines.length} tool calls are listed` : null;
  const cut = bound.cutChars ? `${bound.cutChars.toLocaleString('en-US')} characters of long messages left out (each cut says where)` : null;
  return { steps, modelLines: input.modelTotal, toolLines: input.toolTotal, bounded: [listed, cut].filter(Boolean).join('; ') || null };
}
