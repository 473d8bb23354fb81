import { findTool } from '../../../tools/catalog/index.js';
import { fromNativeJson, fromNativeJsonIfExact, parsePyJsonLine, PY_JSON_DEFAULT_MAX_DEPTH, pyTruthy, type PyValue } from '../../../pycompat/index.js';
import { isPyDict, pyGet } from '../../../pycompat/dict.js';
import { canonicalPage, referenceNormalizeUrl } from '../../../tools/wikipedia/page-identity.js';
import { fileLines, LINE_TOO_LONG, textLines, type LogLine } from '../../../trial/log-lines.js';
import { TOOL_LOG_READ_MAX_LINE_CHARS, valueNestsDeeperThan, type ToolLogField } from '../../../trial/tool-log.js';

/** One tool call from the log, with what scoring reads from it. */
export interface LoggedCall {
  /** `entry.get("tool", "")`, compared as the reference compares it. */
  tool: PyValue;
  /** The catalog name (aliases resolved), for RCR. */
  canonicalName: string | undefined;
  args: PyValue | undefined;
  /** Python truthiness of `success`. */
  success: boolean;
  /** `url`, normalised by the reference rule, when it is a non-empty string. */
  referenceUrl: string | undefined;
  /** Canonical pages this call visited: its url, args.url, and the page it resolved to. */
  pages: string[];
  /** `result_preview` when it is a string, else ''. */
  preview: string;
  /** The gateway refused the call without running it: counted as a call, never credited. */
  refused: boolean;
  /**
   * The preview is an output a tool served, so value matching reads it: not a refused call's, and not an
   * error the gateway or a provider wrote about a failed call (such texts echo what the agent sent: a tool
   * name, arguments, a URL). A line without `source` (the reference's own format) counts, as there.
   */
  servedOutput: boolean;
}

export interface ParsedToolLog {
  calls: LoggedCall[];
  /** Non-blank lines skipped: invalid JSON (as the reference skips them), JSON that is not an object, or
   * JSON nested deeper than Python's json.loads can read (the reference would crash on both). */
  skippedLines: number;
}

/** The fields of a log line that scoring reads (ToolLogLine's names), as Python values; undefined when absent. */
type ReadFields = Pick<Record<ToolLogField, PyValue | undefined>, 'tool' | 'url' | 'resolved_url' | 'args' | 'success' | 'result_preview' | 'refused' | 'source'>;

function toCall(line: ReadFields): LoggedCall {
  const tool = line.tool ?? '';
  const { url, args } = line;
  const pages: string[] = [];
  const resolved = line.resolved_url;
  const argsUrl = isPyDict(args) ? pyGet(args, 'url') : undefined;
  // The three are usually the same text: work each distinct one out once.
  if (typeof url === 'string' && url) pages.push(canonicalPage(url) ?? url);
  if (typeof resolved === 'string' && resolved && resolved !== url) pages.push(canonicalPage(resolved) ?? resolved);
  if (typeof argsUrl === 'string' && argsUrl && argsUrl !== url && argsUrl !== resolved) pages.push(canonicalPage(argsUrl) ?? argsUrl);
  const success = pyTruthy(line.success);
  const refused = line.refused === true;
  const writtenAboutFailure = !success && line.source !== undefined && line.source !== 'container';
  return {
    tool,
    canonicalName: typeof tool === 'string' ? (findTool(tool)?.name ?? tool) : undefined,
    args,
    success,
    referenceUrl: typeof url === 'string' && url ? referenceNormalizeUrl(url) : undefined,
    pages,
    preview: typeof line.result_preview === 'string' ? line.result_preview : '',
    refused,
    servedOutput: !refused && !writtenAboutFailure,
  };
}

/** A field of a JSON.parse'd line as a Python value (json.loads gives the same for a str, the usual case). */
function nativeField(line: Record<string, unknown>, name: ToolLogField): PyValue | undefined {
  if (!Object.prototype.hasOwnProperty.call(line, name)) return undefined;
  const v = line[name];
  return typeof v === 'string' ? v : fromNativeJson(v);
}

/** Marks a line without `args` (distinct from undefined, which says the native parse is not exact). */
const ABSENT = Symbol('absent');

const isJsonObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The call of one log line as `json.loads(line)` reads it; undefined where Python raises or the line is not
 * an object. The native JSON.parse answers most lines, and only the fields scoring reads are converted to
 * Python values (no dict is built for the line itself). The exact Python-typed parser takes over where the
 * two could differ: NaN/Infinity (JSON.parse refuses them), and arguments holding integral numbers (20 vs
 * 20.0 print differently) or integer-like keys (kept in order).
 */
function callOfLine(line: string): LoggedCall | undefined {
  let fast: unknown;
  try {
    fast = JSON.parse(line); // any depth: V8's parser uses no stack for nesting
  } catch {
    fast = undefined;
  }
  if (fast !== undefined) {
    // Python's json.loads gives up past this depth (the reference skips the line); the exact parser below
    // raises there too, for the lines JSON.parse refuses.
    if (!isJsonObject(fast) || valueNestsDeeperThan(fast, PY_JSON_DEFAULT_MAX_DEPTH)) return undefined;
    const args = Object.prototype.hasOwnProperty.call(fast, 'args') ? fromNativeJsonIfExact(fast.args) : ABSENT;
    if (args !== undefined) {
      return toCall({
        tool: nativeField(fast, 'tool'),
        url: nativeField(fast, 'url'),
        resolved_url: nativeField(fast, 'resolved_url'),
        args: args === ABSENT ? undefined : args,
        success: nativeField(fast, 'success'),
        result_preview: nativeField(fast, 'result_preview'),
        refused: nativeField(fast, 'refused'),
        source: nativeField(fast, 'source'),
      });
    }
  }
  let exact: PyValue | undefined;
  try {
    exact = parsePyJsonLine(line);
  } catch {
    return undefined; // too deep, or an integer too long: the reference crashes; we skip the line
  }
  if (!isPyDict(exact)) return undefined;
  return toCall({
    tool: exact.get('tool'),
    url: exact.get('url'),
    resolved_url: exact.get('resolved_url'),
    args: exact.get('args'),
    success: exact.get('success'),
    result_preview: exact.get('result_preview'),
    refused: exact.get('refused'),
    source: exact.get('source'),
  });
}

/** A tool log to score: its text, a file (read line by line, never whole), or none (null). */
export type ToolLogSource = string | null | { file: string };

/**
 * The calls of a tool log in order, read the way the reference verifier reads it: `text.splitlines()`,
 * strip each line, skip blank lines and lines json.loads rejects. A skipped line is given as undefined: one
 * json.loads rejects, valid JSON that is not an object or is nested too deep (the reference would crash on
 * both), or a line longer than TOOL_LOG_READ_MAX_LINE_CHARS (never held whole). Total: no line makes it throw.
 */
export function* toolLogCalls(source: ToolLogSource): Generator<LoggedCall | undefined> {
  if (source === null) return;
  const lines: Iterable<LogLine> | null = typeof source === 'string' ? textLines(source) : fileLines(source.file, TOOL_LOG_READ_MAX_LINE_CHARS);
  for (const line of lines ?? []) {
    if (line === LINE_TOO_LONG) {
      yield undefined;
      continue;
    }
    try {
      yield callOfLine(line);
    } catch {
      yield undefined; // whatever else a line holds, it costs the trial that line, never its score
    }
  }
}

/** All calls of a tool log, held in memory (for a trial page; scoring folds them one by one instead). */
export function parseToolLog(source: ToolLogSource): ParsedToolLog {
  const calls: LoggedCall[] = [];
  let skippedLines = 0;
  for (const call of toolLogCalls(source)) {
    if (call) calls.push(call);
    else skippedLines++;
  }
  return { calls, skippedLines };
}
