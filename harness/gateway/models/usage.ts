import { modelApi } from './apis/registry.js';
import { obj, str, type StreamState } from './apis/types.js';
import type { ModelApi } from './routes.js';
import type { RequestTokens } from './tokens.js';

/** What a response said about itself: its tokens (when it reported any), model, and an error it carried. */
export interface ResponseFacts {
  tokens?: RequestTokens;
  model?: string;
  /** An error event inside a 200 stream (e.g. Anthropic `overloaded_error`, Responses `response.failed`). */
  streamError?: string;
}

/** Reads a whole (non-streaming) JSON response body. */
export function factsFromJson(api: ModelApi, body: unknown): ResponseFacts {
  const o = obj(body);
  const usage = obj(o?.usage);
  if (!o) return {};
  const model = str(o.model);
  if (!usage) return { model };
  return { model, tokens: modelApi(api).tokens(usage) };
}

/** Reads usage from the events of a stream as they pass, as the route's API module says (apis/<id>/). */
export class StreamUsage {
  private readonly state: StreamState = {};

  constructor(private readonly api: ModelApi) {}

  onEvent(event: string, data: string): void {
    if (data === '[DONE]') return;
    let parsed;
    try {
      parsed = obj(JSON.parse(data));
    } catch {
      return;
    }
    if (!parsed) return;
    modelApi(this.api).onStreamEvent(this.api, str(parsed.type) ?? event, parsed, this.state);
  }

  facts(): ResponseFacts {
    const { usage, model, error } = this.state;
    return { tokens: usage ? modelApi(this.api).tokens(usage) : undefined, model, streamError: error };
  }
}
