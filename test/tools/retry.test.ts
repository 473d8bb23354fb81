import { backoffMs, isRetryableStatus, retryAfterMs, withRetries, type RetryEvent } from '../../tools/retry.js';

const POLICY = { maxAttempts: 4, backoffBaseMs: 100, backoffMaxMs: 1000, retryAfterMaxMs: 5000 };

describe('the retry policy', () => {
  test('408, 429 and 5xx are retried; other statuses are not', () => {
    expect([408, 429, 500, 502, 503, 529].every(isRetryableStatus)).toBe(true);
    expect([200, 204, 301, 400, 401, 403, 404, 409, 422].some(isRetryableStatus)).toBe(false);
  });

  test('Retry-After in seconds, ms (retry-after-ms first) or as a date', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': '3' }))).toBe(3000);
    expect(retryAfterMs(new Headers({ 'retry-after': '0.5' }))).toBe(500);
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '150', 'retry-after': '2' }))).toBe(150);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 4000)).toBe(6000);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(1_000).toUTCString() }), 4000)).toBe(0);
    expect(retryAfterMs(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(new Headers())).toBeUndefined();
    expect(retryAfterMs(null)).toBeUndefined();
  });

  test('backoff doubles with jitter and is capped', () => {
    const policy = { backoffBaseMs: 100, backoffMaxMs: 1000 };
    expect([1, 2, 3, 4, 5].map((n) => backoffMs(n, policy, () => 1))).toEqual([100, 200, 400, 800, 1000]);
    expect(backoffMs(3, policy, () => 0)).toBe(200);
    expect(backoffMs(1, policy, () => 0.5)).toBe(75);
  });
});

describe('withRetries', () => {
  const run = async (results: Array<{ status: number; retryAfter?: number }>, options: { signal?: AbortSignal; maxAttempts?: number } = {}) => {
    const sleeps: number[] = [];
    const events: Array<RetryEvent<{ status: number }>> = [];
    const out = await withRetries(
      async (n) => results[n - 1],
      (r) => (isRetryableStatus(r.status) ? { reason: `HTTP ${r.status}`, retryAfterMs: r.retryAfter } : undefined),
      { ...POLICY, maxAttempts: options.maxAttempts ?? POLICY.maxAttempts },
      { sleep: async (ms) => void sleeps.push(ms), random: () => 1, onRetry: (e) => events.push(e), signal: options.signal },
    );
    return { ...out, sleeps, events };
  };

  test('retries until a result is not retryable', async () => {
    const r = await run([{ status: 503 }, { status: 429 }, { status: 200 }]);
    expect(r).toMatchObject({ result: { status: 200 }, attempts: 3, sleeps: [100, 200] });
    expect(r.events.map((e) => [e.attempt, e.reason, e.delayMs])).toEqual([[1, 'HTTP 503', 100], [2, 'HTTP 429', 200]]);
  });

  test('a result that is not retryable is returned at once', async () => {
    expect(await run([{ status: 404 }])).toMatchObject({ result: { status: 404 }, attempts: 1, sleeps: [] });
  });

  test('gives up after maxAttempts with the last result', async () => {
    const r = await run([{ status: 500 }, { status: 502 }, { status: 503 }, { status: 504 }, { status: 200 }]);
    expect(r).toMatchObject({ result: { status: 504 }, attempts: 4, sleeps: [100, 200, 400] });
  });

  test('a Retry-After replaces the backoff, cut to retryAfterMaxMs', async () => {
    const r = await run([{ status: 429, retryAfter: 2000 }, { status: 503, retryAfter: 120_000 }, { status: 200 }]);
    expect(r.sleeps).toEqual([2000, 5000]);
  });

  test('an aborted signal stops before the next attempt', async () => {
    const controller = new AbortController();
    controller.abort();
    expect(await run([{ status: 503 }, { status: 200 }], { signal: controller.signal })).toMatchObject({ result: { status: 503 }, attempts: 1, sleeps: [] });
  });
});
