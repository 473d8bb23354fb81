/**
 * The one retry policy of the harness, used by the tool providers' HTTP client, the model gateway's
 * upstream and a job's infrastructure retries of a trial: which HTTP statuses are worth another try,
 * how long the server asked us to wait, and exponential backoff with jitter between attempts.
 */

/** 408 (request timeout), 429 (rate limited) and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The wait a response asks for, in ms: OpenAI's `retry-after-ms`, else `Retry-After` in seconds or as an HTTP date. */
export function retryAfterMs(headers: Pick<Headers, 'get'> | null | undefined, now = Date.now()): number | undefined {
  const ms = Number(headers?.get('retry-after-ms') ?? NaN);
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get('retry-after');
  if (!value) return undefined;
  if (/^\s*\d+(\.\d+)?\s*$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface RetryPolicy {
  /** Attempts in total, the first included. */
  maxAttempts: number;
  /** The wait before retry n (from 1) is base * 2^(n-1), capped at max, of which a random half is jitter. */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** A server's Retry-After replaces the backoff, cut to this. */
  retryAfterMaxMs: number;
}

export function backoffMs(retry: number, policy: Pick<RetryPolicy, 'backoffBaseMs' | 'backoffMaxMs'>, random = Math.random): number {
  const ceiling = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** (retry - 1));
  return Math.round(ceiling * (0.5 + 0.5 * random()));
}

/** Why an attempt's result deserves another try. */
export interface RetryReason {
  /** `HTTP 503`, `network error: ECONNREFUSED`, ... (for logs). */
  reason: string;
  /** What the server asked for (see retryAfterMs). */
  retryAfterMs?: number;
}

export interface RetryEvent<R> extends RetryReason {
  /** The attempt that failed, from 1. */
  attempt: number;
  delayMs: number;
  result: R;
}

export interface RetryHooks<R> {
  /** Called before each retry's wait. */
  onRetry?: (event: RetryEvent<R>) => void;
  /** When aborted, no further attempt is made and the last result is returned. */
  signal?: AbortSignal;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
}

/** Waits `ms`, or less when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });
}

/**
 * Runs `attempt` until `shouldRetry` finds nothing to retry in its result, the attempts run out or the
 * signal aborts; returns the last result and how many attempts were made. Failures are results here:
 * an attempt that may throw should catch and return what it caught.
 */
export async function withRetries<R>(
  attempt: (n: number) => Promise<R>,
  shouldRetry: (result: R) => RetryReason | undefined,
  policy: RetryPolicy,
  hooks: RetryHooks<R> = {},
): Promise<{ result: R; attempts: number }> {
  const wait = hooks.sleep ?? sleep;
  for (let n = 1; ; n++) {
    const result = await attempt(n);
    const why = shouldRetry(result);
    if (!why || n >= policy.maxAttempts || hooks.signal?.aborted) return { result, attempts: n };
    const delayMs = why.retryAfterMs === undefined ? backoffMs(n, policy, hooks.random) : Math.min(why.retryAfterMs, policy.retryAfterMaxMs);
    hooks.onRetry?.({ ...why, attempt: n, delayMs, result });
    await wait(delayMs, hooks.signal);
    if (hooks.signal?.aborted) return { result, attempts: n };
  }
}
