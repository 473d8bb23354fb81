import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FetchHttpClient, HttpRequestError, type HttpClientOptions, type RetryEvent } from '../../../tools/providers/http.js';
import { json, startFakeServer, type FakeServer } from './fakes/server.js';

let server: FakeServer;
let sleeps: number[];

beforeAll(async () => {
  server = await startFakeServer('echo', (req) => {
    if (req.path === '/redirect') return { status: 302, headers: { location: '/final' } };
    return json({ path: req.path, query: req.query });
  });
});
afterAll(() => server.stop());
beforeEach(() => {
  server.reset();
  server.log.length = 0;
  sleeps = [];
});

const client = (options: HttpClientOptions = {}) =>
  new FetchHttpClient({
    providerDefaults: {},
    defaultLimits: { timeoutMs: 1000, maxAttempts: 4 },
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...options,
  });

async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

describe('FetchHttpClient', () => {
  test('sends the query (undefined values left out), headers and a JSON body', async () => {
    const res = await client().request('p', { method: 'POST', url: `${server.url}/x?keep=1`, query: { a: 'b c', n: 2, skip: undefined }, headers: { 'X-Test': 'yes' }, json: { q: 1 } });
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(1);
    const [req] = server.log;
    expect(req).toMatchObject({ method: 'POST', path: '/x', query: { keep: '1', a: 'b c', n: '2' }, json: { q: 1 } });
    expect(req.headers['x-test']).toBe('yes');
    expect(req.headers['content-type']).toBe('application/json');
  });

  test('follows redirects and reports the final URL', async () => {
    const res = await client().request('p', { url: `${server.url}/redirect` });
    expect(res.url).toBe(`${server.url}/final`);
    expect(JSON.parse(res.text).path).toBe('/final');
  });

  test('retries a 429, then succeeds', async () => {
    server.enqueue({ status: 429, body: { error: 'slow down' } });
    const http = client();
    const res = await http.request('p', { url: `${server.url}/a` });
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(2);
    expect(server.log).toHaveLength(2);
    expect(http.stats().p).toEqual({ requests: 1, attempts: 2, retries: 1, failures: 0 });
  });

  test('retries 503 twice with exponential backoff and jitter, then succeeds', async () => {
    server.enqueue({ status: 503 }, { status: 503 });
    const res = await client({ backoffBaseMs: 100, random: () => 0.5 }).request('p', { url: `${server.url}/a` });
    expect(res).toMatchObject({ status: 200, attempts: 3 });
    // ceiling 100 then 200; half fixed, half jitter (random 0.5)
    expect(sleeps).toEqual([75, 150]);
  });

  test('backoff is capped by backoffMaxMs', async () => {
    server.enqueue({ status: 500 }, { status: 502 }, { status: 504 });
    await client({ backoffBaseMs: 100, backoffMaxMs: 250, random: () => 1 }).request('p', { url: `${server.url}/a` });
    expect(sleeps).toEqual([100, 200, 250]);
  });

  test('honours Retry-After seconds, capped by retryAfterMaxMs', async () => {
    server.enqueue({ status: 429, headers: { 'retry-after': '2' } }, { status: 503, headers: { 'retry-after': '120' } });
    const res = await client({ retryAfterMaxMs: 5000 }).request('p', { url: `${server.url}/a` });
    expect(res.status).toBe(200);
    expect(sleeps).toEqual([2000, 5000]);
  });

  test('retries a 408 like the model gateway does, and honours retry-after-ms', async () => {
    server.enqueue({ status: 408, headers: { 'retry-after-ms': '40' } });
    const res = await client().request('p', { url: `${server.url}/a` });
    expect(res).toMatchObject({ status: 200, attempts: 2 });
    expect(sleeps).toEqual([40]);
  });

  test('gives up after maxAttempts and returns the last response', async () => {
    server.enqueue(...Array.from({ length: 5 }, () => ({ status: 503, body: { error: 'down' } })));
    const events: RetryEvent[] = [];
    const http = client({ defaultLimits: { maxAttempts: 3 }, onRetry: (e) => events.push(e) });
    const res = await http.request('p', { url: `${server.url}/a`, query: { key: 'secret' } });
    expect(res).toMatchObject({ status: 503, attempts: 3 });
    expect(server.log).toHaveLength(3);
    expect(events.map((e) => [e.attempt, e.reason])).toEqual([[1, 'HTTP 503'], [2, 'HTTP 503']]);
    expect(events[0].target).toBe(`GET ${server.url}/a`);
    expect(http.stats().p).toMatchObject({ retries: 2, failures: 1 });
  });

  test('does not retry other 4xx answers', async () => {
    server.enqueue({ status: 404 });
    const res = await client().request('p', { url: `${server.url}/a` });
    expect(res).toMatchObject({ status: 404, attempts: 1 });
    expect(server.log).toHaveLength(1);
  });

  test('a network error is retried, then thrown without the query (which may hold a key)', async () => {
    const port = await closedPort();
    const err = await client({ defaultLimits: { maxAttempts: 2 } }).request('p', { url: `http://127.0.0.1:${port}/x`, query: { key: 'secret' } }).catch((e) => e);
    expect(err).toBeInstanceOf(HttpRequestError);
    expect(err).toMatchObject({ kind: 'network', attempts: 2 });
    expect(err.message).toContain('ECONNREFUSED');
    expect(err.message).not.toContain('secret');
    expect(sleeps).toHaveLength(1);
  });

  test('times out a slow answer, retrying it once per remaining attempt', async () => {
    server.delayMs = 300;
    const started = Date.now();
    const err = await client({ defaultLimits: { timeoutMs: 50, maxAttempts: 2 } }).request('p', { url: `${server.url}/slow` }).catch((e) => e);
    expect(err).toMatchObject({ kind: 'timeout', attempts: 2 });
    expect(err.message).toContain('timeout after 50 ms');
    expect(server.log).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(280);
  });

  test('retryOnTimeout: false fails on the first timeout', async () => {
    server.delayMs = 200;
    const err = await client({ retryOnTimeout: false, defaultLimits: { timeoutMs: 30 } }).request('p', { url: `${server.url}/slow` }).catch((e) => e);
    expect(err).toMatchObject({ kind: 'timeout', attempts: 1 });
  });

  test('keeps at most `concurrency` requests of a provider in flight', async () => {
    server.delayMs = 40;
    const http = client({ limits: { slow: { concurrency: 2 } } });
    await Promise.all(Array.from({ length: 6 }, (_, i) => http.request('slow', { url: `${server.url}/${i}` })));
    expect(server.maxInFlight).toBe(2);
    expect(server.log).toHaveLength(6);
  });

  test('limits are per provider', async () => {
    server.delayMs = 40;
    const http = client({ limits: { a: { concurrency: 1 }, b: { concurrency: 1 } } });
    await Promise.all([http.request('a', { url: `${server.url}/a` }), http.request('b', { url: `${server.url}/b` })]);
    expect(server.maxInFlight).toBe(2);
  });

  test('rate-limits starts to intervalCap per interval', async () => {
    const http = client({ limits: { rated: { concurrency: 10, intervalCap: 2, interval: 80 } } });
    const started = Date.now();
    await Promise.all(Array.from({ length: 6 }, (_, i) => http.request('rated', { url: `${server.url}/${i}` })));
    // 6 requests at 2 per 80 ms need three windows.
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    const times = server.log.map((r) => r.at - started);
    expect(times.filter((t) => t < 70)).toHaveLength(2);
  });

  test('provider defaults apply unless replaced', () => {
    const http = new FetchHttpClient();
    expect(http.limitsFor('yahoo-finance')).toMatchObject({ concurrency: 2, intervalCap: 2, interval: 1000, maxAttempts: 4 });
    expect(http.limitsFor('code-model').timeoutMs).toBe(120_000);
    expect(new FetchHttpClient({ providerDefaults: {}, defaultLimits: { concurrency: 9 } }).limitsFor('yahoo-finance')).toEqual({ concurrency: 9, timeoutMs: 30_000, maxAttempts: 4 });
    expect(new FetchHttpClient({ limits: { binance: { concurrency: 1 } } }).limitsFor('binance')).toMatchObject({ concurrency: 1, intervalCap: 10 });
  });
});
