import PQueue from 'p-queue';
import { isRetryableStatus, retryAfterMs, sleep, withRetries, type RetryReason } from '../retry.js';
import { AddressPolicy, AddressRefusedError } from './address-guard.js';
import { guardedFetch, ResponseTooLargeError, type Resolver } from './guarded-fetch.js';
import type { ProviderLimits } from './define.js';
import { DEFAULT_PROVIDER_LIMITS } from './index.js';
import type { HttpClient, HttpRequest, HttpResponse } from './types.js';

export type { ProviderLimits };
export { DEFAULT_PROVIDER_LIMITS };

export interface RetryEvent {
  provider: string;
  /** Method and URL without its query (which may hold an API key). */
  target: string;
  /** The attempt that failed, from 1. */
  attempt: number;
  /** `HTTP 503`, `timeout after 30000 ms`, `network error: ECONNREFUSED`, ... */
  reason: string;
  delayMs: number;
}

/**
 * Options of `FetchHttpClient`; every field is optional. A provider's limits are, field by field, the first set of:
 * `limits[provider]`, `providerDefaults[provider]` (default: DEFAULT_PROVIDER_LIMITS), `defaultLimits`, and
 * concurrency 4, no rate limit, timeoutMs 30000, maxAttempts 4. Retries follow tools/retry.ts (408, 429, 5xx,
 * network errors); other defaults:
 * - backoff before retry n (from 1): min(backoffMaxMs, backoffBaseMs * 2^(n-1)), of which a random half is jitter;
 *   `backoffBaseMs` 500, `backoffMaxMs` 8000
 * - a `Retry-After` (or `retry-after-ms`) header replaces the backoff, capped at `retryAfterMaxMs` (30000)
 * - `retryOnTimeout`: true (a timed-out attempt is retried like a network error)
 * - `sleep`: setTimeout-based; `random`: Math.random; `fetch`: the global fetch (tests may inject all three)
 */
export interface HttpClientOptions {
  limits?: Record<string, Partial<ProviderLimits>>;
  /** Replaces DEFAULT_PROVIDER_LIMITS (`{}` drops them, e.g. in tests). */
  providerDefaults?: Record<string, Partial<ProviderLimits>>;
  defaultLimits?: Partial<ProviderLimits>;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  retryAfterMaxMs?: number;
  retryOnTimeout?: boolean;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  fetch?: typeof fetch;
  /** Called before each retry's wait (for logging). */
  onRetry?: (event: RetryEvent) => void;
  /** Non-public addresses that guarded requests (`HttpRequest.guard`) may still reach: `tools.allow_addresses`. */
  allowAddresses?: readonly string[];
  /** DNS for guarded requests (default: the system's; tests answer 127.0.0.1 for public-looking names). */
  resolve?: Resolver;
}

const BASE_LIMITS: ProviderLimits = { concurrency: 4, timeoutMs: 30_000, maxAttempts: 4 };

/** A request that got no HTTP response (network failure or timeout) on its last attempt. */
export class HttpRequestError extends Error {
  constructor(
    message: string,
    /** refused: the target's address is not one the policy allows (never retried). */
    readonly kind: 'network' | 'timeout' | 'refused',
    readonly attempts: number,
  ) {
    super(message);
    this.name = 'HttpRequestError';
  }
}

/** Per-provider counters since the client was made. */
export interface ProviderStats {
  requests: number;
  attempts: number;
  retries: number;
  /** Requests that threw (no response) or ended non-2xx. */
  failures: number;
}

type Attempt = { response: HttpResponse } | { error: HttpRequestError };

/** The URL with its query applied (undefined values left out). */
export function buildUrl(req: HttpRequest): URL {
  const url = new URL(req.url);
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
  return url;
}

export class FetchHttpClient implements HttpClient {
  private readonly queues = new Map<string, PQueue>();
  private readonly counters = new Map<string, ProviderStats>();
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  private readonly fetchFn: typeof fetch;
  private readonly guardedFetchFn: typeof fetch;

  constructor(private readonly options: HttpClientOptions = {}) {
    this.sleep = options.sleep ?? sleep;
    this.random = options.random ?? Math.random;
    this.fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
    this.guardedFetchFn = guardedFetch({ policy: new AddressPolicy(options.allowAddresses), ...(options.resolve ? { resolve: options.resolve } : {}) });
  }

  limitsFor(provider: string): ProviderLimits {
    const providerDefaults = this.options.providerDefaults ?? DEFAULT_PROVIDER_LIMITS;
    return { ...BASE_LIMITS, ...this.options.defaultLimits, ...providerDefaults[provider], ...this.options.limits?.[provider] };
  }

  stats(): Record<string, ProviderStats> {
    return Object.fromEntries([...this.counters].map(([k, v]) => [k, { ...v }]));
  }

  async request(provider: string, req: HttpRequest): Promise<HttpResponse> {
    const limits = this.limitsFor(provider);
    const queue = this.queueFor(provider, limits);
    const stats = this.statsFor(provider);
    stats.requests++;
    const url = buildUrl(req);
    const target = `${req.method ?? 'GET'} ${url.origin}${url.pathname}`;
    const { result } = await withRetries(
      (attempt) => {
        stats.attempts++;
        // Each attempt queues on its own, so a request waiting to retry does not hold a concurrency slot.
        return queue.add(() => this.attempt(url, req, limits.timeoutMs, target, attempt)) as Promise<Attempt>;
      },
      (result) => this.retryReason(result),
      {
        maxAttempts: limits.maxAttempts,
        backoffBaseMs: this.options.backoffBaseMs ?? 500,
        backoffMaxMs: this.options.backoffMaxMs ?? 8000,
        retryAfterMaxMs: this.options.retryAfterMaxMs ?? 30_000,
      },
      {
        sleep: this.sleep,
        random: this.random,
        onRetry: ({ attempt, reason, delayMs }) => {
          stats.retries++;
          this.options.onRetry?.({ provider, target, attempt, reason, delayMs });
        },
      },
    );
    if ('error' in result) {
      stats.failures++;
      throw result.error;
    }
    if (result.response.status >= 300) stats.failures++;
    return result.response;
  }

  private retryReason(result: Attempt): RetryReason | undefined {
    if ('response' in result) {
      const { status, headers } = result.response;
      return isRetryableStatus(status) ? { reason: `HTTP ${status}`, retryAfterMs: retryAfterMs(headers) } : undefined;
    }
    if (result.error.kind === 'refused') return undefined;
    const retryable = result.error.kind === 'network' || this.options.retryOnTimeout !== false;
    return retryable ? { reason: result.error.message } : undefined;
  }

  private async attempt(url: URL, req: HttpRequest, timeoutMs: number, target: string, attempt: number): Promise<Attempt> {
    const headers: Record<string, string> = { ...req.headers };
    let body: string | undefined;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] ??= 'application/json';
    }
    try {
      const fetchFn = req.guard ? this.guardedFetchFn : this.fetchFn;
      const res = await fetchFn(url, { method: req.method ?? 'GET', headers, body, redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
      const text = await res.text();
      return { response: { status: res.status, url: res.url || url.toString(), headers: res.headers, text, attempts: attempt } };
    } catch (err) {
      const e = err as Error & { cause?: { code?: string; message?: string } };
      if (e.cause instanceof AddressRefusedError || e.cause instanceof ResponseTooLargeError) return { error: new HttpRequestError(`${target}: ${e.cause.message}`, 'refused', attempt) };
      if (e.name === 'TimeoutError' || e.name === 'AbortError') {
        return { error: new HttpRequestError(`${target}: timeout after ${timeoutMs} ms`, 'timeout', attempt) };
      }
      const detail = e.cause?.code ?? e.cause?.message ?? e.message;
      return { error: new HttpRequestError(`${target}: network error: ${detail}`, 'network', attempt) };
    }
  }

  private queueFor(provider: string, limits: ProviderLimits): PQueue {
    let queue = this.queues.get(provider);
    if (!queue) {
      const rate = limits.intervalCap && limits.interval ? { intervalCap: limits.intervalCap, interval: limits.interval } : {};
      queue = new PQueue({ concurrency: limits.concurrency, ...rate });
      this.queues.set(provider, queue);
    }
    return queue;
  }

  private statsFor(provider: string): ProviderStats {
    let s = this.counters.get(provider);
    if (!s) this.counters.set(provider, (s = { requests: 0, attempts: 0, retries: 0, failures: 0 }));
    return s;
  }
}
