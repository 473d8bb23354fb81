import { modelApi } from './apis/registry.js';
import { obj, str, type StreamAssembler, type StreamState } from './apis/types.js';
import type { ModelApi } from './routes.js';
import type { RequestTokens } from './tokens.js';

/** What a response said about itself: its tokens (when it reported any), model, and an error it carried. */
export interface ResponseFacts {
  tokens?: RequestTokens;
  model?: string;
  /** An error event inside a 200 stream (e.g. Anthropic `overloaded_error`, Responses `response.failed`). */
  streamError?: string;
  /** The answer for the model log, when recorded: the JSON body, or a stream reassembled (apis/<id>/). */
  response?: unknown;
  /** The API's own message in an error body (`error.message`, the shape of every API here). */
  errorMessage?: string;
}

/** Reads a whole (non-streaming) JSON response body. */
export function factsFromJson(api: ModelApi, body: unknown): ResponseFacts {
  const o = obj(body);
  const usage = obj(o?.usage);
  if (!o) return {};
  const errorMessage = str(obj(o.error)?.message);
  if (errorMessage !== undefined) return { errorMessage };
  const model = str(o.model);
  if (!usage) return { model };
  return { model, tokens: modelApi(api).tokens(usage) };
}

/**
 * Reads usage from the events of a stream as they pass, as the route's API module says (apis/<id>/); when
 * the answer is recorded, its assembler rebuilds the answer from the same parsed events.
 */
export class StreamUsage {
  private readonly state: StreamState = {};
  private readonly assembler?: StreamAssembler;

  constructor(
    private readonly api: ModelApi,
    record = false,
  ) {
    if (record) this.assembler = modelApi(api).assembler(api);
  }

  onEvent(event: string, data: string): void {
    if (data === '[DONE]') return;
    let parsed;
    try {
      parsed = obj(JSON.parse(data));
    } catch {
      return;
    }
    if (!parsed) return;
    const type = str(parsed.type) ?? event;
    modelApi(this.api).onStreamEvent(this.api, type, parsed, this.state);
    this.assembler?.onEvent(type, parsed);
  }

  facts(): ResponseFacts {
    const { usage, model, error } = this.state;
    const response = this.assembler?.result();
    return { tokens: usage ? modelApi(this.api).tokens(usage) : undefined, model, streamError: error, ...(response ? { response } : {}) };
  }
}
