import { isRetryableStatus, retryAfterMs, withRetries, type RetryPolicy as BackoffPolicy } from '../../../tools/retry.js';

/**
 * Sends one model request upstream with retries (the policy of tools/retry.ts): 408, 429, 5xx, network
 * errors and timeouts are retried with exponential backoff and jitter (Retry-After honoured, capped) until
 * the attempts run out. A try
 * counts as answered only once the first byte of its body has arrived, so a connection that dies before
 * that is retried too; after it, the caller relays the body and nothing is retried any more.
 */

export interface RetryPolicy extends BackoffPolicy {
  /** Per attempt: until the first body byte; the caller then uses it as the idle limit between chunks. */
  timeoutMs: number;
}

export const DEFAULT_RETRY: Omit<RetryPolicy, 'maxAttempts' | 'timeoutMs'> = { backoffBaseMs: 1000, backoffMaxMs: 20_000, retryAfterMaxMs: 60_000 };

export interface UpstreamRequest {
  url: string;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** An answer to relay: any status that is not retried (2xx, most 4xx), with its first chunk already read. */
export interface UpstreamAnswer {
  ok: true;
  status: number;
  headers: Headers;
  /** The first chunk of the body (undefined for an empty body), and the reader for the rest. */
  first?: Uint8Array;
  reader?: ReadableStreamDefaultReader<Uint8Array>;
  /** Aborts the body (client gone, idle timeout). */
  abort: (reason: Error) => void;
  attempts: number;
}

/** Every attempt failed: the last failure, with the upstream's error response when there was one. */
export interface UpstreamFailure {
  ok: false;
  status?: number;
  headers?: Headers;
  body?: Buffer;
  error: string;
  attempts: number;
  /** The client went away: nothing more to send. */
  clientGone?: boolean;
}

type Attempt = UpstreamAnswer | (Omit<UpstreamFailure, 'attempts'> & { retryable: boolean });

function describeFetchError(error: unknown, timedOut: boolean, timeoutMs: number): string {
  if (timedOut) return `no answer from upstream within ${timeoutMs} ms`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return `network error: ${cause?.code ?? cause?.message ?? (error as Error).message}`;
}

async function attemptOnce(request: UpstreamRequest, policy: RetryPolicy, clientGone: AbortSignal, attempts: number): Promise<Attempt> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new Error('upstream timeout'));
  }, policy.timeoutMs);
  const onClientGone = () => controller.abort(new Error('client closed the connection'));
  clientGone.addEventListener('abort', onClientGone);
  try {
    const response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body, signal: controller.signal, redirect: 'manual' });
    if (isRetryableStatus(response.status)) {
      const body = Buffer.from(await response.arrayBuffer());
      return { ok: false, retryable: true, status: response.status, headers: response.headers, body, error: `upstream answered ${response.status}` };
    }
    const reader = response.body?.getReader();
    const first = reader ? await reader.read() : undefined;
    return {
      ok: true,
      status: response.status,
      headers: response.headers,
      first: first && !first.done ? first.value : undefined,
      reader: first && !first.done ? reader : undefined,
      abort: (reason) => controller.abort(reason),
      attempts,
    };
  } catch (error) {
    if (clientGone.aborted) return { ok: false, retryable: false, clientGone: true, error: 'the client closed the connection' };
    return { ok: false, retryable: true, error: describeFetchError(error, timedOut, policy.timeoutMs) };
  } finally {
    clearTimeout(timer);
    clientGone.removeEventListener('abort', onClientGone);
  }
}

export async function sendUpstream(
  request: UpstreamRequest,
  policy: RetryPolicy,
  clientGone: AbortSignal,
  onRetry: (attempt: number, reason: string, delayMs: number) => void,
): Promise<UpstreamAnswer | UpstreamFailure> {
  const { result, attempts } = await withRetries(
    (attempt) => attemptOnce(request, policy, clientGone, attempt),
    (r) => (!r.ok && r.retryable ? { reason: r.error, retryAfterMs: retryAfterMs(r.headers) } : undefined),
    policy,
    { signal: clientGone, onRetry: (e) => onRetry(e.attempt, e.reason, e.delayMs) },
  );
  if (result.ok) return result;
  const { retryable: _, ...failure } = result;
  return { ...failure, attempts, clientGone: failure.clientGone || clientGone.aborted };
}
