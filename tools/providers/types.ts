/**
 * The contract between the gateway and the live tool providers.
 *
 * A provider is the transport to one upstream service (tools/providers/index.ts); a tool's `run` (tools/catalog)
 * gets arguments already validated and normalised by its zod schema, calls over that transport and returns
 * the text the agent sees. The gateway does the rest: tokens, logging, caching, record/replay, truncation.
 */

import type { Endpoints, ProviderKeys } from './index.js';

/** What one tool call produced. */
export interface ToolResult {
  /** False for any failure; `text` then starts with "Error: ". */
  ok: boolean;
  /** What the agent sees (before the gateway's truncation). */
  text: string;
  /** fetch_webpage: the URL of the page the request resolved to (after redirects), when known. */
  resolvedUrl?: string;
  /** A failure's upstream detail for the log (HTTP status, provider message); not shown to the agent beyond `text`. */
  providerError?: string;
  /** A failure that may not recur (timeout, network error, 429 or 5xx after retries): never cached or recorded. */
  transient?: boolean;
}

export { DEFAULT_ENDPOINTS, keysFromEnv, type Endpoints, type ProviderKeys } from './index.js';

export interface HttpRequest {
  method?: 'GET' | 'POST';
  url: string;
  query?: Record<string, string | number | undefined>;
  headers?: Record<string, string>;
  /** JSON body for POST. */
  json?: unknown;
  /** The target (or its host) came from the agent: connect only to addresses the client's policy allows
   * (public ones, or the job's tools.allow_addresses), checked after DNS on every redirect hop. */
  guard?: boolean;
}

export interface HttpResponse {
  status: number;
  /** Final URL after redirects. */
  url: string;
  headers: Headers;
  text: string;
  /** How many attempts the client made (1 = no retry), so the gateway can log retries. */
  attempts?: number;
}

/**
 * The HTTP client providers use: per-provider concurrency and rate limits, timeouts, and retries with
 * backoff on 429 and 5xx. A non-2xx final response is returned (not thrown); network failures and
 * timeouts throw an Error whose message says what happened.
 */
export interface HttpClient {
  request(provider: string, req: HttpRequest): Promise<HttpResponse>;
}

export interface ProviderContext {
  endpoints: Endpoints;
  keys: ProviderKeys;
  http: HttpClient;
  /** Model for python_generate_code. */
  codeModel?: string;
}
