/**
 * One line of a trial's tool_log.jsonl, as the gateway writes it: the reference verifier's format first
 * (tool, args, success, result_preview, result_len, ts, and url when the arguments have one), then ours.
 * The key order is the order on disk. Readers take any line the reference takes (any JSON, fields
 * missing or of other types), so this type names the fields; it does not promise them.
 */
export interface ToolLogLine {
  /** The tool's name as the agent called it (an alias stays an alias). */
  tool: string;
  /** The arguments as sent; `{}` when there were none. */
  args: unknown;
  success: boolean;
  /** The first RESULT_PREVIEW_CHARS code points of what the agent saw. */
  result_preview: string;
  /** Code points of what the agent saw. */
  result_len: number;
  /** Unix time in seconds. */
  ts: number;
  /** `args.url`, when it is there and truthy. */
  url?: unknown;
  /** The catalog name of the tool, when `tool` is an alias of it (resolved once, by the gateway's tool
   * service). Absent: `tool` is the catalog name itself, or unknown. Logs written before it read the same. */
  canonical_tool?: string;
  /** The page a fetch ended on, after redirects and canonicalisation. */
  resolved_url?: string;
  latency_ms: number;
  /** Where the response came from: provider, cache, store, container or gateway. */
  source: string;
  cache_hit: boolean;
  /** Whether what the agent saw was cut, and the length before the cut. */
  truncated: boolean;
  full_len: number;
  provider_error?: string;
  /** The arguments were longer than LOGGED_ARGS_MAX_CHARS as JSON: `args` holds them cut (each long string
   * ends with LOG_CUT_MARK, or `{}` when that was not enough), and this is their length as sent. */
  args_full_len?: number;
  /** The gateway refused the call without running it (unknown tool, a tool reported from the wrong place):
   * counted as a call, never credited (no golden step, tool or page). */
  refused?: true;
}

export type ToolLogField = keyof ToolLogLine;

/** The reference verifier keeps the first 2,000 characters of each result. */
export const RESULT_PREVIEW_CHARS = 2000;

/** A line of tool_log.jsonl, newline included. */
export function toolLogText(line: ToolLogLine): string {
  return JSON.stringify(line) + '\n';
}

/**
 * Bounds on the arguments of one tool call, so that every line the gateway logs can be read back: deeper
 * or larger arguments are refused with a tool error (and logged as refused, without them).
 */
export const TOOL_ARGS_MAX_DEPTH = 64;
export const TOOL_ARGS_MAX_CHARS = 256 * 1024;

/**
 * Bounds on what one trial's tool log holds (constants, not config), so that no agent can make its log too
 * large to score or the harness too large to run. Within a line: arguments longer than
 * LOGGED_ARGS_MAX_CHARS as JSON are logged with each string cut at LOGGED_ARG_STRING_MAX_CHARS
 * (`{}` when that is not enough; `args_full_len` gives their length as sent), and the tool name and
 * the URL fields are cut at LOGGED_NAME_MAX_CHARS / LOGGED_TEXT_MAX_CHARS, each cut string ending with
 * LOG_CUT_MARK; the preview keeps RESULT_PREVIEW_CHARS as before. So no line is longer than
 * TOOL_LOG_LINE_MAX_BYTES. Per trial: the gateway runs at most TOOL_LOG_MAX_CALLS calls and stops taking
 * calls when the log could grow past TOOL_LOG_MAX_BYTES; the first call refused for that is logged as
 * refused, later ones are refused with no line (trial.json counts them in `tool_log_bound`).
 */
export const LOGGED_ARGS_MAX_CHARS = 16 * 1024;
export const LOGGED_ARG_STRING_MAX_CHARS = 1024;
export const LOGGED_NAME_MAX_CHARS = 128;
export const LOGGED_TEXT_MAX_CHARS = 2048;
export const LOG_CUT_MARK = '…[cut by aar-harness]';
export const TOOL_LOG_LINE_MAX_BYTES = 128 * 1024;
export const TOOL_LOG_MAX_BYTES = 16 * 1024 * 1024;
export const TOOL_LOG_MAX_CALLS = 2000;
/** A reader skips (and counts) a line longer than this without holding it, whoever wrote the log. */
export const TOOL_LOG_READ_MAX_LINE_CHARS = 4 * 1024 * 1024;

/**
 * The deepest nesting of arrays and objects in a JSON text (0 for a scalar), found by one scan without
 * recursion, so no input can overflow the stack. Brackets inside strings do not count.
 */
export function jsonTextDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > deepest) deepest = depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/**
 * Whether a JSON text nests deeper than `depth`. It needs more than `depth` opening brackets for that, and
 * counting those (indexOf, native) is much cheaper than the scan, which runs only for texts that have them.
 */
export function nestsDeeperThan(text: string, depth: number): boolean {
  let opening = 0;
  for (const bracket of ['[', '{']) {
    for (let i = text.indexOf(bracket); i >= 0 && opening <= depth; i = text.indexOf(bracket, i + 1)) opening++;
  }
  return opening > depth && jsonTextDepth(text) > depth;
}

/**
 * Whether a value read by JSON.parse nests arrays and objects deeper than `depth`: the same answer as
 * nestsDeeperThan for its text, without scanning the text. The walk stops at `depth`, so it uses little stack.
 */
export function valueNestsDeeperThan(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth === 0) return true;
  if (Array.isArray(value)) {
    for (const item of value) if (valueNestsDeeperThan(item, depth - 1)) return true;
    return false;
  }
  for (const key in value) if (valueNestsDeeperThan((value as Record<string, unknown>)[key], depth - 1)) return true;
  return false;
}
