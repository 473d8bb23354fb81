import type { ModelPrice } from '../prices.js';
import type { RequestTokens } from '../tokens.js';
import type { TranscriptReader } from '../../../../trial/trajectory/exchanges.js';

export type Json = Record<string, unknown>;

/** An API's models and their prices (USD per million tokens), by model name (dated names match their base, prices.ts). */
export type ModelPrices = Readonly<Record<string, ModelPrice>>;

/** One gateway path of an API and where it goes upstream (the query string is kept). */
export interface ModelRouteSpec {
  /** The gateway path, under `/<id>/`. */
  path: string;
  /** The `api` of its model_log.jsonl lines. */
  api: string;
  /** A model turn: counted in the trial's usage and held to its budget (e.g. count_tokens is not). */
  counted: boolean;
  /** Appended to the API's base URL. */
  upstreamPath: string;
  /** How the trajectory reads this route's exchanges from the model log (every counted route has one). */
  transcript?: TranscriptReader;
}

/** What a stream has said so far about its usage, model and an error event it carried. */
export interface StreamState {
  usage?: Json;
  model?: string;
  error?: string;
}

/**
 * Rebuilds a streamed answer into the API's non-streamed shape (a Messages `message`, a Chat
 * `chat.completion`, a Responses `response`), one parsed event at a time, for the model log.
 */
export interface StreamAssembler {
  onEvent(type: string, data: Json): void;
  /** The answer so far (whole once the stream ended); undefined when no event said anything. */
  result(): Json | undefined;
}

/** A request and the answer to it in a route's shapes: what the API's conformance suite reads back (harness/plugins/conformance/). */
export interface ModelExchangeExample {
  request: Json;
  response: Json;
}

/**
 * One model API the gateway proxies (a folder under apis/, one line in apis/registry.ts; or a plugin's). Its `id` is the
 * gateway's path prefix (`/<id>/...`), the job config's `models.<id>_base_url` and the handler's
 * `<id>BaseUrl` / `<id>ApiKey` options. Its models' prices are its own `prices.ts`; the registry merges every
 * API's into the built-in price table (a job's `models.prices` replaces that whole table).
 */
export interface ModelApiModule {
  readonly id: string;
  readonly defaultBaseUrl: string;
  /** The host environment variable holding the real key. */
  readonly keyVariable: string;
  readonly routes: readonly ModelRouteSpec[];
  /** Its models' prices (its folder's prices.ts). */
  readonly prices: ModelPrices;
  /** The headers that carry the host's key upstream. */
  authHeaders(apiKey: string): Record<string, string>;
  /** An error body in the API's own shape, so the framework shows it as the API's error. */
  errorBody(type: string, message: string, code?: string): unknown;
  /** The error type of a 502 when the upstream could not be reached. */
  readonly unreachableType: string;
  /** The request body sent upstream (default: as the client sent it). */
  upstreamBody?(api: string, raw: Buffer, json: Json): Buffer;
  /** The token counts of a usage object (see RequestTokens for what each count holds). */
  tokens(usage: Json): RequestTokens;
  /** Reads one server-sent event (its `type`, else its event name, and its parsed data) of a streaming answer. */
  onStreamEvent(api: string, type: string, data: Json, state: StreamState): void;
  /** A new reassembler of one streamed answer of a route's `api` (text, reasoning, tool calls, usage). */
  assembler(api: string): StreamAssembler;
  /** An exchange of each counted route, by its `api`, with some text in the request and the reply: the conformance suite reads them. */
  readonly examples: Readonly<Record<string, ModelExchangeExample>>;
}

export const obj = (v: unknown): Json | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined);
export const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
export const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A text field with one more streamed piece (either may be missing). */
export const joined = (text: unknown, piece: unknown): string => (str(text) ?? '') + (str(piece) ?? '');

export const errorText = (v: unknown): string => {
  const e = obj(v);
  return str(obj(e?.error)?.message) ?? str(e?.message) ?? JSON.stringify(v);
};
