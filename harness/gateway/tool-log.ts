import { appendFileSync } from 'node:fs';
import type { ToolCallOutcome } from '../../tools/service.js';
import { codePointLength, codePointPrefix } from '../../tools/truncate.js';
import { RESULT_PREVIEW_CHARS, toolLogText, type ToolLogLine } from '../../trial/tool-log.js';

/** One line of a trial's tool_log.jsonl for a call the gateway answered. */
export function toolLogLine(calledAs: string, args: unknown, outcome: ToolCallOutcome, latencyMs: number, now = Date.now()): string {
  const url = args && typeof args === 'object' ? (args as Record<string, unknown>).url : undefined;
  const line: ToolLogLine = {
    tool: calledAs,
    args: args ?? {},
    success: outcome.ok,
    result_preview: codePointPrefix(outcome.text, RESULT_PREVIEW_CHARS),
    result_len: codePointLength(outcome.text),
    ts: now / 1000,
    ...(url ? { url } : {}),
    ...(outcome.resolvedUrl ? { resolved_url: outcome.resolvedUrl } : {}),
    latency_ms: Math.round(latencyMs * 10) / 10,
    source: outcome.source,
    cache_hit: outcome.source === 'cache',
    truncated: outcome.truncated,
    full_len: outcome.fullLength,
    ...(outcome.providerError ? { provider_error: outcome.providerError } : {}),
    ...(outcome.refused ? { refused: true as const } : {}),
  };
  return toolLogText(line);
}

/**
 * Appends one line. Synchronous on purpose: a single write per line from the one gateway thread, so lines
 * of concurrent calls never interleave and none is lost if the process dies right after answering.
 */
export function appendToolLog(path: string, line: string): void {
  appendFileSync(path, line);
}
