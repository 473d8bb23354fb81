import { z } from 'zod';
import { fileLines, LINE_TOO_LONG } from '../../trial/log-lines.js';
import { TOOL_LOG_READ_MAX_LINE_CHARS } from '../../trial/tool-log.js';
import { columns, type Cell, type ColumnFormat, type DetailTable } from './model.js';

/** Characters of a tool result's preview a trial page shows (the full 2,000 stay in tool_log.jsonl). */
export const DEFAULT_PREVIEW_CHARS = 600;

/** Calls a trial page lists at most (a log may hold many more; the page says how many it left out). */
export const SHOWN_LINES = 1000;

/** A line the page shows in place of one too long to read (scoring skips it too). */
const TOO_LONG_SHOWN = '(a line too long to read)';

/**
 * The first `max` non-blank lines of a log file, split and stripped as scoring splits them (so indexes
 * agree), read line by line (the file is never held whole), and how many it has in all.
 */
export function logFileLines(file: string, max = SHOWN_LINES): { lines: string[]; total: number } {
  const lines: string[] = [];
  let total = 0;
  for (const line of fileLines(file, TOOL_LOG_READ_MAX_LINE_CHARS) ?? []) {
    if (total++ < max) lines.push(line === LINE_TOO_LONG ? TOO_LONG_SHOWN : line);
  }
  return { lines, total };
}

/** The first `max` code points of a text, and how many were left out. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = 0;
  for (let points = 0; points < max && end < text.length; points++) end += (text.codePointAt(end) as number) > 0xffff ? 2 : 1;
  if (end >= text.length) return text;
  let rest = 0;
  for (let i = end; i < text.length; i += (text.codePointAt(i) as number) > 0xffff ? 2 : 1) rest++;
  return `${text.slice(0, end)} … (${rest} more characters)`;
}

/** A tool-log line as the trial page reads it: every field optional, as an agent or an old log may lack any. */
const ToolLineSchema = z.looseObject({
  tool: z.unknown(),
  args: z.unknown(),
  success: z.unknown(),
  result_preview: z.unknown(),
  result_len: z.number().optional(),
  latency_ms: z.number().optional(),
  source: z.string().optional(),
  cache_hit: z.boolean().optional(),
  truncated: z.boolean().optional(),
  resolved_url: z.string().optional(),
  provider_error: z.string().optional(),
});

function parseLine(line: string): z.infer<typeof ToolLineSchema> | null {
  try {
    const parsed = ToolLineSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

const text = (v: unknown): string => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

/**
 * The tool calls in log order: name, arguments, outcome, preview, latency and where the result came from.
 * `notes[i]`, given by the family, says what call i did for the task (e.g. which golden step it matched).
 */
export function toolCallsTable(lines: readonly string[], notes: readonly (string | null)[], previewChars = DEFAULT_PREVIEW_CHARS, total = lines.length): DetailTable {
  const rows: Record<string, Cell>[] = [];
  const marks: (string | null)[] = [];
  lines.forEach((line, i) => {
    const call = parseLine(line);
    if (!call) {
      rows.push({ n: i + 1, tool: '(unreadable line)', args: clip(line, 200), ok: null, preview: '', chars: null, latency: null, source: null, note: null });
      marks.push('muted');
      return;
    }
    const source = [call.source, call.cache_hit ? 'cache hit' : null, call.truncated ? 'truncated' : null].filter(Boolean).join(', ');
    const preview = [call.provider_error ? `provider error: ${call.provider_error}` : null, call.resolved_url ? `→ ${call.resolved_url}` : null, clip(text(call.result_preview), previewChars)]
      .filter(Boolean)
      .join('\n');
    rows.push({
      n: i + 1,
      tool: text(call.tool),
      args: clip(text(call.args), 400),
      ok: call.success === true,
      preview: previewChars > 0 ? preview : null,
      chars: call.result_len ?? null,
      latency: call.latency_ms ?? null,
      source: source || null,
      note: notes[i] ?? null,
    });
    marks.push(call.success === true ? (notes[i] ? 'ok' : null) : 'miss');
  });
  return {
    title: `Tool calls (${total})`,
    note: `In the order the gateway logged them${total > lines.length ? `; the first ${lines.length} of ${total} are listed` : ''}. ${previewChars > 0 ? 'Previews are cut for the page' : 'The result previews are in the conversation'}; tool_log.jsonl in the trial folder holds what the verifier read.`,
    columns: columns(
      ['n', '#', 'int'], ['tool', 'tool', 'text'], ['args', 'arguments', 'text'], ['ok', 'ok', 'text'],
      ['note', 'for the task', 'text'], ...(previewChars > 0 ? [['preview', 'result preview', 'text'] as [string, string, ColumnFormat]] : []), ['chars', 'chars', 'int'],
      ['latency', 'ms', 'int'], ['source', 'source', 'text'],
    ),
    rows,
    marks,
  };
}

const ModelLineSchema = z.looseObject({
  ts: z.number().optional(),
  model: z.string().nullable().optional(),
  status: z.number().optional(),
  turn: z.number().nullable().optional(),
  input_tokens: z.number().nullable().optional(),
  output_tokens: z.number().nullable().optional(),
  cached_tokens: z.number().nullable().optional(),
  cost_usd: z.number().nullable().optional(),
  latency_ms: z.number().optional(),
  error: z.string().optional(),
  note: z.string().optional(),
  budget_exceeded: z.boolean().optional(),
});

/** The model requests of model_log.jsonl (one per line), with their tokens, cost and latency; `notLogged`: requests counted past the log's bound. */
export function modelTurnsTable(logLines: readonly string[], notLogged = 0): DetailTable {
  const rows: Record<string, Cell>[] = [];
  const marks: (string | null)[] = [];
  for (const line of logLines) {
    let parsed: ReturnType<typeof ModelLineSchema.safeParse> | null = null;
    try {
      parsed = ModelLineSchema.safeParse(JSON.parse(line));
    } catch {
      parsed = null;
    }
    if (!parsed?.success) continue;
    const m = parsed.data;
    rows.push({
      turn: m.turn ?? null,
      model: m.model ?? null,
      status: m.status ?? null,
      input: m.input_tokens ?? null,
      output: m.output_tokens ?? null,
      cached: m.cached_tokens ?? null,
      cost: m.cost_usd ?? null,
      latency: m.latency_ms ?? null,
      note: [m.error, m.note, m.budget_exceeded ? 'budget exceeded' : null].filter(Boolean).join('; ') || null,
    });
    marks.push(m.status !== undefined && m.status >= 400 ? 'miss' : null);
  }
  return {
    title: `Model turns (${rows.length})`,
    note:
      (rows.length ? 'Every model request the gateway relayed (model_log.jsonl).' : 'No model traffic went through the gateway for this trial (built-in agents use no model).') +
      (notLogged ? ` ${notLogged} more requests, none of them a turn, are only counted (trial.json model_log_bound).` : ''),
    columns: columns(
      ['turn', 'turn', 'int'], ['model', 'model', 'text'], ['status', 'HTTP', 'int'],
      ['input', 'input tokens', 'int'], ['output', 'output tokens', 'int'], ['cached', 'cached', 'int'],
      ['cost', 'cost', 'usd'], ['latency', 'ms', 'int'], ['note', 'note', 'text'],
    ),
    rows,
    marks,
  };
}
