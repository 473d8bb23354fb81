import { nestsDeeperThan, TOOL_ARGS_MAX_CHARS, TOOL_ARGS_MAX_DEPTH, TOOL_LOG_LINE_MAX_BYTES, TOOL_LOG_MAX_BYTES, TOOL_LOG_MAX_CALLS } from '../../trial/tool-log.js';
import { HttpError } from './http.js';

/** A tool request's body, parsed; or, when its arguments are out of bounds, why, and the tool it named. */
export type BoundedToolRequest = { ok: true; body: unknown } | { ok: false; tool: string; reason: string };

/**
 * The value of a string member of the top-level object, found without parsing the rest (which may be too
 * deep to parse cheaply); undefined when there is none.
 */
export function topLevelString(text: string, key: string): string | undefined {
  let depth = 0;
  let lastString: string | undefined;
  let awaitingValueOf: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let end = i + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      let value: string;
      try {
        value = JSON.parse(text.slice(i, end + 1)) as string;
      } catch {
        return undefined;
      }
      if (depth === 1 && awaitingValueOf === key) return value;
      lastString = depth === 1 ? value : undefined;
      awaitingValueOf = undefined;
      i = end;
    } else if (c === ':') {
      awaitingValueOf = depth === 1 ? lastString : undefined;
    } else if (c === '{' || c === '[') {
      depth++;
      awaitingValueOf = undefined;
    } else if (c === '}' || c === ']') depth--;
    else if (c === ',') awaitingValueOf = lastString = undefined;
  }
  return undefined;
}

/**
 * Parses the body of /v1/tools/call or /v1/tools/report ({tool, args, ...}), refusing arguments nested
 * deeper than TOOL_ARGS_MAX_DEPTH or longer than TOOL_ARGS_MAX_CHARS as JSON. The depth is checked before
 * parsing: JSON.parse takes seconds on millions of levels, and every logged line must stay readable.
 */
export function parseToolRequest(text: string): BoundedToolRequest {
  // The body object is one level; only `args` nests below it.
  if (nestsDeeperThan(text, TOOL_ARGS_MAX_DEPTH + 1)) {
    return { ok: false, tool: topLevelString(text, 'tool') ?? '', reason: `the arguments nest deeper than ${TOOL_ARGS_MAX_DEPTH} levels` };
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new HttpError(400, 'the request body is not valid JSON');
  }
  const { tool, args } = (body && typeof body === 'object' ? body : {}) as { tool?: unknown; args?: unknown };
  const size = args === undefined ? 0 : JSON.stringify(args).length;
  if (size > TOOL_ARGS_MAX_CHARS) {
    return { ok: false, tool: typeof tool === 'string' ? tool : '', reason: `the arguments are ${size} characters of JSON, over the limit of ${TOOL_ARGS_MAX_CHARS}` };
  }
  return { ok: true, body };
}

/** Which per-trial bound of the tool log stopped the calls, and how many calls it refused without a line. */
export interface ToolLogBoundReached {
  reached: 'calls' | 'bytes';
  calls_not_logged: number;
}

/**
 * One trial's share of the tool log: calls and bytes logged, with room held for calls still running, so
 * that concurrent calls cannot pass the bounds together. Past a bound a call is refused before it runs; the
 * first such call is logged (as refused), later ones only counted.
 */
export class ToolLogBudget {
  calls = 0;
  bytes = 0;
  private running = 0;
  bound: ToolLogBoundReached | undefined;

  constructor(
    readonly maxCalls = TOOL_LOG_MAX_CALLS,
    readonly maxBytes = TOOL_LOG_MAX_BYTES,
  ) {}

  /** Takes room for one more call, or says which bound stops it. */
  reserve(): { ok: true } | { ok: false; reached: ToolLogBoundReached['reached']; logIt: boolean } {
    // One line's room stays free for the refusal that is logged when a bound is reached.
    const linesWithThis = this.running + 2;
    const reached = this.calls + this.running >= this.maxCalls ? 'calls' : this.bytes + linesWithThis * TOOL_LOG_LINE_MAX_BYTES > this.maxBytes ? 'bytes' : undefined;
    if (!reached) {
      this.running++;
      return { ok: true };
    }
    if (this.bound) {
      this.bound.calls_not_logged++;
      return { ok: false, reached: this.bound.reached, logIt: false };
    }
    this.bound = { reached, calls_not_logged: 0 };
    this.running++;
    return { ok: false, reached, logIt: true };
  }

  /** A reserved call was answered: its line (0 bytes when none was written) now counts. */
  commit(lineBytes: number): void {
    this.running--;
    this.calls++;
    this.bytes += lineBytes;
  }

  /** A reserved call ended without an answer (a bad request): its room is free again. */
  release(): void {
    this.running--;
  }
}

/** The agent's answer to a call refused at a bound. */
export function boundRefusalText(reached: ToolLogBoundReached['reached'], budget: ToolLogBudget): string {
  return reached === 'calls'
    ? `this trial has made ${budget.maxCalls} tool calls, the most one trial may make; no more calls are run`
    : `this trial's tool log holds ${budget.bytes} bytes, near the limit of ${budget.maxBytes}; no more calls are run`;
}

/**
 * Lines of model_log.jsonl per trial for requests that are not turns: refused over the budget, refused as
 * malformed, or not counted as turns (count_tokens). Turns are all logged (the step budget bounds them);
 * of the others the first MODEL_LOG_MAX_OTHER_LINES are, and past that they are only counted, by kind, in
 * trial.json's `model_log_bound`, so an agent looping on a refused request cannot grow the record.
 */
export const MODEL_LOG_MAX_OTHER_LINES = 200;

export type ModelLogLineKind = 'turn' | 'budget_exceeded' | 'invalid_request' | 'not_a_turn';

/** trial.json's `model_log_bound`: the bound, how many requests past it were not logged, and of which kind. */
export interface ModelLogBound {
  other_lines_max: number;
  requests_not_logged: number;
  by_kind: Partial<Record<Exclude<ModelLogLineKind, 'turn'>, number>>;
}

/** One trial's model-log lines that are not turns, against MODEL_LOG_MAX_OTHER_LINES. */
export class ModelLogBudget {
  otherLines = 0;
  bound: ModelLogBound | undefined;

  constructor(readonly maxOtherLines = MODEL_LOG_MAX_OTHER_LINES) {}

  /** Whether a line of this kind may be written; past the bound it is counted instead. */
  take(kind: ModelLogLineKind): boolean {
    if (kind === 'turn') return true;
    if (this.otherLines < this.maxOtherLines) {
      this.otherLines++;
      return true;
    }
    this.bound ??= { other_lines_max: this.maxOtherLines, requests_not_logged: 0, by_kind: {} };
    this.bound.requests_not_logged++;
    this.bound.by_kind[kind] = (this.bound.by_kind[kind] ?? 0) + 1;
    return false;
  }
}
