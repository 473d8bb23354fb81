import type { ToolCallOutcome } from '../../tools/service.js';
import { appendLogLine } from './log-append.js';
import { codePointLength, codePointPrefix } from '../../tools/truncate.js';
import {
  LOG_CUT_MARK,
  LOGGED_ARG_STRING_MAX_CHARS,
  LOGGED_ARGS_MAX_CHARS,
  LOGGED_NAME_MAX_CHARS,
  LOGGED_TEXT_MAX_CHARS,
  RESULT_PREVIEW_CHARS,
  toolLogText,
  type ToolLogLine,
} from '../../trial/tool-log.js';

/** A string as logged: its first `max` code points and LOG_CUT_MARK when it is longer. */
export function cutForLog(text: string, max: number): string {
  if (text.length <= max) return text;
  const kept = codePointPrefix(text, max);
  return kept.length === text.length ? text : kept + LOG_CUT_MARK;
}

/** A copy of a JSON value with every string (keys too) cut by cutForLog; nesting is bounded by the request check. */
function cutStrings(value: unknown, max: number): unknown {
  if (typeof value === 'string') return cutForLog(value, max);
  if (Array.isArray(value)) return value.map((v) => cutStrings(v, max));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [cutForLog(k, max), cutStrings(v, max)]));
  }
  return value;
}

/**
 * The arguments as logged: as sent when their JSON fits LOGGED_ARGS_MAX_CHARS; else with each string cut,
 * or `{}` when even that is too long (a dict: readers that match arguments expect one); `fullLength` then
 * says how long they were.
 */
export function argsForLog(args: unknown): { args: unknown; fullLength?: number } {
  const json = JSON.stringify(args ?? {});
  if (json.length <= LOGGED_ARGS_MAX_CHARS) return { args: args ?? {} };
  const cut = cutStrings(args, LOGGED_ARG_STRING_MAX_CHARS);
  return { args: JSON.stringify(cut).length <= LOGGED_ARGS_MAX_CHARS ? cut : {}, fullLength: json.length };
}

/** `args.url` as logged: a string cut; another value as sent when its JSON is short, else that JSON cut. */
function urlForLog(url: unknown): unknown {
  if (typeof url === 'string') return cutForLog(url, LOGGED_TEXT_MAX_CHARS);
  const json = JSON.stringify(url);
  return json.length <= LOGGED_TEXT_MAX_CHARS ? url : cutForLog(json, LOGGED_TEXT_MAX_CHARS);
}

/** One line of a trial's tool_log.jsonl for a call the gateway answered, every field within its log bound. */
export function toolLogLine(calledAs: string, args: unknown, outcome: ToolCallOutcome, latencyMs: number, now = Date.now()): string {
  const url = args && typeof args === 'object' ? (args as Record<string, unknown>).url : undefined;
  const logged = argsForLog(args);
  const text = (v: string) => cutForLog(v, LOGGED_TEXT_MAX_CHARS);
  const line: ToolLogLine = {
    tool: cutForLog(calledAs, LOGGED_NAME_MAX_CHARS),
    args: logged.args,
    success: outcome.ok,
    result_preview: codePointPrefix(outcome.text, RESULT_PREVIEW_CHARS),
    result_len: codePointLength(outcome.text),
    ts: now / 1000,
    ...(url ? { url: urlForLog(url) } : {}),
    ...(outcome.calledAs === undefined ? {} : { canonical_tool: outcome.tool }),
    ...(outcome.resolvedUrl ? { resolved_url: text(outcome.resolvedUrl) } : {}),
    latency_ms: Math.round(latencyMs * 10) / 10,
    source: outcome.source,
    cache_hit: outcome.source === 'cache',
    truncated: outcome.truncated,
    full_len: outcome.fullLength,
    ...(outcome.providerError ? { provider_error: text(outcome.providerError) } : {}),
    ...(outcome.refused ? { refused: true as const } : {}),
    ...(logged.fullLength === undefined ? {} : { args_full_len: logged.fullLength }),
  };
  return toolLogText(line);
}

/**
 * Appends one line, its secrets masked; returns the bytes written. Synchronous on purpose: a single write per
 * line from the one gateway thread, so lines of concurrent calls never interleave and none is lost if the
 * process dies right after answering.
 */
export function appendToolLog(path: string, line: string): number {
  return appendLogLine(path, line);
}
