import { appendFileSync } from 'node:fs';
import type { ToolCallOutcome } from '../../tools/service.js';
import { codePointLength, codePointPrefix } from '../../tools/truncate.js';

/** The reference verifier keeps the first 2,000 characters of each result. */
export const PREVIEW_CHARS = 2000;

/**
 * One line of a trial's tool_log.jsonl: the reference format (tool, args, success, result_preview,
 * result_len, ts, url when args has one) followed by our fields.
 */
export function toolLogLine(calledAs: string, args: unknown, outcome: ToolCallOutcome, latencyMs: number, now = Date.now()): string {
  const entry: Record<string, unknown> = {
    tool: calledAs,
    args: args ?? {},
    success: outcome.ok,
    result_preview: codePointPrefix(outcome.text, PREVIEW_CHARS),
    result_len: codePointLength(outcome.text),
    ts: now / 1000,
  };
  const url = args && typeof args === 'object' ? (args as Record<string, unknown>).url : undefined;
  if (url) entry.url = url;
  if (outcome.resolvedUrl) entry.resolved_url = outcome.resolvedUrl;
  entry.latency_ms = Math.round(latencyMs * 10) / 10;
  entry.source = outcome.source;
  entry.cache_hit = outcome.source === 'cache';
  entry.truncated = outcome.truncated;
  entry.full_len = outcome.fullLength;
  if (outcome.providerError) entry.provider_error = outcome.providerError;
  return JSON.stringify(entry) + '\n';
}

/**
 * Appends one line. Synchronous on purpose: a single write per line from the one gateway thread, so lines
 * of concurrent calls never interleave and none is lost if the process dies right after answering.
 */
export function appendToolLog(path: string, line: string): void {
  appendFileSync(path, line);
}
