import { createHash } from 'node:crypto';
import { hostSecrets, SECRET_MARK, type SecretMask } from '../../../common/secrets.js';
import { TOOL_LOG_READ_MAX_LINE_CHARS } from '../../../trial/tool-log.js';
import type { ModelLogEntry } from './model-log.js';

/**
 * Per-trial cap on the bytes of model_log.jsonl that hold the conversation (a constant, like the tool
 * log's). Past it a line keeps its counts (tokens, cost, latency, status) and says why its request and
 * answer are not there; the model traffic itself goes on, so the cap counts against nobody's score.
 */
export const MODEL_LOG_MAX_BYTES = 32 * 1024 * 1024;
/** A line longer than readers take (they skip it) keeps its counts only; later lines are not affected. */
export const MODEL_LOG_LINE_MAX_BYTES = TOOL_LOG_READ_MAX_LINE_CHARS;
/** What stands in the log for a host key or a trial token found in a request or an answer (common/secrets.ts). */
export { SECRET_MARK };

/** One exchange as the model log keeps it: the request body as the agent sent it, and the answer. */
export interface Exchange {
  request: Record<string, unknown>;
  /** The JSON body, a stream reassembled into the API's non-streamed shape, or a non-JSON body's text. */
  response?: unknown;
}

/** The fields a line of model_log.jsonl adds when the conversation is recorded. */
export interface ConversationFields {
  /** The request body without `tools` (messages, system prompt, parameters). */
  request?: Record<string, unknown>;
  /** sha256 of the request's `tools` as JSON; the definitions themselves are on the first line with it. */
  tools_sha256?: string;
  tools?: unknown;
  response?: unknown;
  /** Why this line has no request or answer (the trial's log reached MODEL_LOG_MAX_BYTES, or this line MODEL_LOG_LINE_MAX_BYTES). */
  conversation_not_logged?: string;
}

/**
 * One trial's model log as it is written: its bytes so far, the tool sets already written, and whether the
 * cap was reached (after which no line holds a conversation any more, so the log never has gaps inside).
 */
export class ConversationLog {
  bytes = 0;
  capReached = false;
  private readonly toolSets = new Set<string>();

  constructor(
    readonly maxBytes = MODEL_LOG_MAX_BYTES,
    readonly maxLineBytes = MODEL_LOG_LINE_MAX_BYTES,
  ) {}

  /**
   * The text of one line (newline included): the entry, then the exchange when one is given and fits under
   * the cap; every secret (the host's keys, the trial tokens) replaced by SECRET_MARK.
   */
  line(entry: ModelLogEntry, exchange: Exchange | undefined, secrets: SecretMask = hostSecrets): string {
    const removeSecrets = (text: string) => secrets.text(text);
    let text: string;
    if (!exchange) text = removeSecrets(JSON.stringify(entry));
    else if (this.capReached) text = removeSecrets(JSON.stringify({ ...entry, conversation_not_logged: this.capReason() }));
    else {
      const { tools, ...request } = exchange.request;
      const toolsSha256 = tools === undefined ? undefined : createHash('sha256').update(JSON.stringify(tools)).digest('hex');
      const fields: ConversationFields = {
        request,
        ...(toolsSha256 ? { tools_sha256: toolsSha256, ...(this.toolSets.has(toolsSha256) ? {} : { tools }) } : {}),
        ...(exchange.response === undefined ? {} : { response: exchange.response }),
      };
      text = removeSecrets(JSON.stringify({ ...entry, ...fields }));
      const size = Buffer.byteLength(text) + 1;
      let reason: string | undefined;
      if (size > this.maxLineBytes) reason = `request and answer take ${size} bytes, over the line limit of ${this.maxLineBytes}: not kept`;
      else if ((this.capReached = this.bytes + size > this.maxBytes)) reason = this.capReason();
      if (reason) text = removeSecrets(JSON.stringify({ ...entry, conversation_not_logged: reason }));
      else if (toolsSha256) this.toolSets.add(toolsSha256);
    }
    this.bytes += Buffer.byteLength(text) + 1;
    return text + '\n';
  }

  private capReason(): string {
    return `the model log reached its cap of ${this.maxBytes} bytes for this trial: request and answer not kept`;
  }
}
