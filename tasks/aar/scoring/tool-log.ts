import { findTool } from '../../../tools/catalog/index.js';
import { fromNativeJsonPart, parsePyJsonLine, pySplitlines, pyStrip, pyTruthy, type PyValue } from '../../../python/index.js';
import { dependsOnPythonTypes, isPyDict, pyGet, type PyDict } from '../../../python/dict.js';
import { canonicalPage, referenceNormalizeUrl } from '../../../tools/wikipedia/page-identity.js';
import type { ToolLogField } from '../../../trial/tool-log.js';

/** One tool call from the log, with what scoring reads from it. */
export interface LoggedCall {
  entry: PyDict;
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
}

export interface ParsedToolLog {
  calls: LoggedCall[];
  /** Non-blank lines skipped: invalid JSON (as the reference skips them) or JSON that is not an object. */
  skippedLines: number;
}

/** `entry.get(name)` for a field the gateway writes (ToolLogLine); undefined when the line lacks it. */
const logField = (entry: PyDict, name: ToolLogField): PyValue | undefined => pyGet(entry, name);

function toCall(entry: PyDict): LoggedCall {
  const tool = logField(entry, 'tool') ?? '';
  const url = logField(entry, 'url');
  const args = logField(entry, 'args');
  const pages: string[] = [];
  for (const candidate of [url, logField(entry, 'resolved_url'), isPyDict(args) ? pyGet(args, 'url') : undefined]) {
    if (typeof candidate === 'string' && candidate) pages.push(canonicalPage(candidate) ?? candidate);
  }
  const preview = logField(entry, 'result_preview');
  return {
    entry,
    tool,
    canonicalName: typeof tool === 'string' ? (findTool(tool)?.name ?? tool) : undefined,
    args,
    success: pyTruthy(logField(entry, 'success')),
    referenceUrl: typeof url === 'string' && url ? referenceNormalizeUrl(url) : undefined,
    pages,
    preview: typeof preview === 'string' ? preview : '',
  };
}

/**
 * `json.loads(line)`, or undefined where Python raises. The native JSON.parse answers most lines; the exact
 * Python-typed parser takes over where they could differ: NaN/Infinity (JSON.parse refuses them), and
 * arguments holding integral numbers (20 vs 20.0 print differently) or integer-like keys (kept in order).
 */
/** What scoring reads of a log line (toCall); on the fast path only these parts are converted. */
const LOGGED_PARTS = { tool: true, url: true, resolved_url: true, args: true, success: true, result_preview: true } as const;

function parseLine(line: string): PyValue | undefined {
  let fast: unknown;
  try {
    fast = JSON.parse(line);
  } catch {
    fast = undefined;
  }
  if (fast !== undefined && !(fast && typeof fast === 'object' && !Array.isArray(fast) && dependsOnPythonTypes((fast as Record<string, unknown>).args))) {
    return fromNativeJsonPart(fast, LOGGED_PARTS);
  }
  try {
    return parsePyJsonLine(line);
  } catch {
    return undefined; // too deep, or an integer too long: the reference crashes; we skip the line
  }
}

/**
 * Reads a tool log the way the reference verifier does: `text.splitlines()`, strip each line, skip blank
 * lines and lines json.loads rejects. A line holding valid JSON that is not an object would crash the
 * reference; here it is skipped and counted.
 */
export function parseToolLog(text: string | null): ParsedToolLog {
  const calls: LoggedCall[] = [];
  let skippedLines = 0;
  if (text === null) return { calls, skippedLines };
  for (const raw of pySplitlines(text)) {
    const line = pyStrip(raw);
    if (!line) continue;
    const value = parseLine(line);
    if (value !== undefined && isPyDict(value)) calls.push(toCall(value));
    else skippedLines++;
  }
  return { calls, skippedLines };
}
