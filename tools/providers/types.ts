/**
 * The contract between the gateway and the live tool providers.
 *
 * A provider serves one or more tools against one upstream service (Wikipedia, Google Maps, ...). It gets
 * arguments already validated and normalised by the tool's zod schema (tools/catalog) and returns the
 * text the agent sees. The gateway does the rest: tokens, logging, caching, record/replay, truncation.
 */

import type { ProviderName } from './names.js';

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

/** Base URLs of the upstream services; tests point them at local servers. */
export interface Endpoints {
  /** MediaWiki action API; `{lang}` is replaced by the wiki's language code. */
  wikipedia: string;
  serper: string;
  googleMaps: string;
  openMeteoArchive: string;
  openMeteoForecast: string;
  restCountries: string;
  yahooFinance: string;
  binance: string;
  /** OpenAI-compatible API used by python_generate_code (`/chat/completions` is appended). */
  codeModel: string;
}

export const DEFAULT_ENDPOINTS: Endpoints = {
  wikipedia: 'https://{lang}.wikipedia.org/w/api.php',
  serper: 'https://google.serper.dev',
  googleMaps: 'https://maps.googleapis.com/maps/api',
  openMeteoArchive: 'https://archive-api.open-meteo.com/v1',
  openMeteoForecast: 'https://api.open-meteo.com/v1',
  restCountries: 'https://restcountries.com/v3.1',
  yahooFinance: 'https://query1.finance.yahoo.com',
  binance: 'https://api.binance.com/api/v3',
  codeModel: 'https://api.openai.com/v1',
};

/** API keys, read from the host environment only; never written to disk or passed to containers. */
export interface ProviderKeys {
  /** GOOGLE_API_KEY */
  google?: string;
  /** SERPER_API_KEY */
  serper?: string;
  /** OPENAI_API_KEY, for python_generate_code */
  codeModel?: string;
}

/** The host variable holding the key of each provider that needs one (the others need none). */
export const PROVIDER_KEY_VARS: Partial<Record<ProviderName, string>> = { 'google-maps': 'GOOGLE_API_KEY', serper: 'SERPER_API_KEY', 'code-model': 'OPENAI_API_KEY' };

export function keysFromEnv(env: NodeJS.ProcessEnv = process.env): ProviderKeys {
  return { google: env.GOOGLE_API_KEY || undefined, serper: env.SERPER_API_KEY || undefined, codeModel: env.OPENAI_API_KEY || undefined };
}

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

/** An upstream service; the tools it serves name it in their definitions (tools/catalog). */
export interface ToolProvider {
  /** Also the key of its limits in the HTTP client, e.g. `google-maps`. */
  name: ProviderName;
  call(tool: string, args: Record<string, unknown>, ctx: ProviderContext): Promise<ToolResult>;
}
