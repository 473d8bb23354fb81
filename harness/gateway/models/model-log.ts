import { appendLogLine } from '../log-append.js';
import type { ModelApi } from './routes.js';

/**
 * One line of a trial's model_log.jsonl: one model request as the gateway handled it. When the job records
 * the conversation (`models.record_conversation`, on by default), the line adds the request and the answer
 * (conversation.ts: ConversationFields).
 */
export interface ModelLogEntry {
  /** Seconds since the epoch (as in tool_log.jsonl). */
  ts: number;
  api: ModelApi;
  /** The model that answered (from the response), else the one requested. */
  model: string | null;
  stream: boolean;
  /** The HTTP status the client got (0 when it got none: the connection was cut). */
  status: number;
  /** This request's turn number in the trial; null for requests that are not turns or were refused. */
  turn: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cached_tokens: number | null;
  cache_write_tokens: number | null;
  /** Null when the model has no price in the table (see `note`) or no usage was reported. */
  cost_usd: number | null;
  latency_ms: number;
  /** Upstream attempts (0 when the request was not forwarded). */
  attempts: number;
  error?: string;
  note?: string;
  budget_exceeded?: boolean;
  /** Each upstream retry of this request: its attempt, why, and the wait before the next. */
  retries?: { attempt: number; reason: string; delay_ms: number }[];
}

/** One synchronous write per line (conversation.ts makes its text), so lines of concurrent requests never interleave. */
export function appendModelLog(path: string | undefined, line: string): void {
  if (path) appendLogLine(path, line);
}
