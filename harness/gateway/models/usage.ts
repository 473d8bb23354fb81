import type { ModelApi } from './routes.js';

/**
 * Token counts of one model request, the same way for every API:
 * - `input`: every prompt token the model read, cached or not. Anthropic reports uncached input, cache
 *   reads and cache writes apart (input_tokens + cache_read_input_tokens + cache_creation_input_tokens);
 *   OpenAI's input_tokens / prompt_tokens already include the cached ones.
 * - `cached`: the part of `input` read from the prompt cache (Anthropic cache_read_input_tokens, OpenAI
 *   input_tokens_details.cached_tokens / prompt_tokens_details.cached_tokens). Cache writes are not cached
 *   tokens; they are `cacheWrite` (Anthropic cache_creation_input_tokens, priced apart, also part of input).
 * - `output`: output tokens, reasoning included (OpenAI counts reasoning inside output_tokens).
 */
export interface RequestTokens {
  input: number;
  output: number;
  cached: number;
  cacheWrite: number;
}

/** What a response said about itself: its tokens (when it reported any), model, and an error it carried. */
export interface ResponseFacts {
  tokens?: RequestTokens;
  model?: string;
  /** An error event inside a 200 stream (e.g. Anthropic `overloaded_error`, Responses `response.failed`). */
  streamError?: string;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function anthropicTokens(usage: Json): RequestTokens {
  const cached = num(usage.cache_read_input_tokens);
  const cacheWrite = num(usage.cache_creation_input_tokens);
  return { input: num(usage.input_tokens) + cached + cacheWrite, output: num(usage.output_tokens), cached, cacheWrite };
}

/** OpenAI Responses (`input_tokens`) and Chat Completions (`prompt_tokens`) usage objects. */
function openaiTokens(usage: Json): RequestTokens {
  const details = obj(usage.input_tokens_details) ?? obj(usage.prompt_tokens_details);
  return {
    input: num(usage.input_tokens ?? usage.prompt_tokens),
    output: num(usage.output_tokens ?? usage.completion_tokens),
    cached: num(details?.cached_tokens),
    cacheWrite: 0,
  };
}

const errorText = (v: unknown): string => {
  const e = obj(v);
  return str(obj(e?.error)?.message) ?? str(e?.message) ?? JSON.stringify(v);
};

/** Reads a whole (non-streaming) JSON response body. */
export function factsFromJson(api: ModelApi, body: unknown): ResponseFacts {
  const o = obj(body);
  const usage = obj(o?.usage);
  if (!o) return {};
  const model = str(o.model);
  if (!usage) return { model };
  return { model, tokens: api === 'anthropic-messages' ? anthropicTokens(usage) : openaiTokens(usage) };
}

/**
 * Reads usage from the events of a stream as they pass. Anthropic: message_start's message.usage, then
 * each message_delta's usage (cumulative counts; the last one's output_tokens is the output). Responses:
 * the usage of response.completed (or .incomplete / .failed). Chat: the last chunk carrying `usage`.
 */
export class StreamUsage {
  private usage?: Json;
  private model?: string;
  private error?: string;

  constructor(private readonly api: ModelApi) {}

  onEvent(event: string, data: string): void {
    if (data === '[DONE]') return;
    let parsed: Json | undefined;
    try {
      parsed = obj(JSON.parse(data));
    } catch {
      return;
    }
    if (!parsed) return;
    const type = str(parsed.type) ?? event;
    if (this.api === 'anthropic-messages') {
      const message = obj(parsed.message);
      if (type === 'message_start' && message) {
        this.model = str(message.model) ?? this.model;
        this.usage = { ...obj(message.usage) };
      } else if (type === 'message_delta' && obj(parsed.usage)) {
        this.usage = { ...this.usage, ...obj(parsed.usage) };
      } else if (type === 'error') this.error = errorText(parsed);
    } else if (this.api === 'openai-responses') {
      const response = obj(parsed.response);
      if (response) this.model = str(response.model) ?? this.model;
      if (response && obj(response.usage)) this.usage = obj(response.usage);
      if (type === 'response.failed') this.error = errorText(response?.error ?? 'response.failed');
      else if (type === 'error') this.error = errorText(parsed);
    } else {
      this.model = str(parsed.model) ?? this.model;
      if (obj(parsed.usage)) this.usage = obj(parsed.usage);
      if (obj(parsed.error)) this.error = errorText(parsed);
    }
  }

  facts(): ResponseFacts {
    const tokens = this.usage ? (this.api === 'anthropic-messages' ? anthropicTokens(this.usage) : openaiTokens(this.usage)) : undefined;
    return { tokens, model: this.model, streamError: this.error };
  }
}
