import type { ServerResponse } from 'node:http';
import { bearer, claudeCodeBody, claudeCodeHeaders, codexBody, postJson, startAdHocUpstream, startModelGateway } from './fixtures.js';

const MESSAGE = { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: 'hi' }], stop_reason: 'end_turn', usage: { input_tokens: 10, output_tokens: 2 } };
const ok = (res: ServerResponse) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(MESSAGE));
};
const fail = (res: ServerResponse, status: number, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'overloaded_error', message: `status ${status}` } }));
};

/** A gateway whose Anthropic upstream answers call n with `reply(res, n)`. */
async function setup(reply: (res: ServerResponse, n: number) => void | Promise<void>, options: { maxAttempts?: number; timeoutMs?: number } = {}) {
  const upstream = await startAdHocUpstream((_req, res, _body, n) => reply(res, n));
  const gw = await startModelGateway({ anthropicBaseUrl: upstream.url, openaiBaseUrl: upstream.url, maxAttempts: options.maxAttempts ?? 3, timeoutMs: options.timeoutMs });
  const trial = gw.newTrial();
  const send = () => postJson(`${gw.url}/anthropic/v1/messages`, claudeCodeHeaders(trial.token), claudeCodeBody([{ role: 'user', content: 'hi' }], false));
  return { upstream, gw, trial, send, close: async () => (await gw.close(), await upstream.stop()) };
}

describe('upstream failures', () => {
  test('429 then 200: retried after the Retry-After delay, counted as one answered turn', async () => {
    const t = await setup((res, n) => (n === 1 ? fail(res, 429, { 'retry-after': '1' }) : ok(res)));
    try {
      const started = Date.now();
      const res = await t.send();
      expect(Date.now() - started).toBeGreaterThanOrEqual(950);
      expect(res.status).toBe(200);
      expect(res.json()).toEqual(MESSAGE);
      expect(t.upstream.calls).toBe(2);
      expect(t.trial.usage).toMatchObject({ turns: 1, answered: 1, upstreamRetries: 1, upstreamFailures: 0, inputTokens: 10, outputTokens: 2 });
      expect(t.gw.logOf(t.trial)).toEqual([expect.objectContaining({ status: 200, attempts: 2, turn: 1 })]);
    } finally {
      await t.close();
    }
  });

  test('a long Retry-After is capped', async () => {
    const upstream = await startAdHocUpstream((_req, res, _body, n) => (n === 1 ? fail(res, 529, { 'retry-after': '3600' }) : ok(res)));
    const gw = await startModelGateway({ anthropicBaseUrl: upstream.url, backoff: { retryAfterMaxMs: 50 } });
    try {
      const trial = gw.newTrial();
      const started = Date.now();
      expect((await postJson(`${gw.url}/anthropic/v1/messages`, claudeCodeHeaders(trial.token), claudeCodeBody([], false))).status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(trial.usage.upstreamRetries).toBe(1);
    } finally {
      await gw.close();
      await upstream.stop();
    }
  });

  test('503 every time: the last error is relayed after max_attempts and the failure counted', async () => {
    const t = await setup((res) => fail(res, 503));
    try {
      const res = await t.send();
      expect(res.status).toBe(503);
      expect(res.json()).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });
      expect(t.upstream.calls).toBe(3);
      expect(t.trial.usage).toMatchObject({ turns: 1, answered: 0, upstreamRetries: 2, upstreamFailures: 1, inputTokens: 0 });
      expect(t.gw.logOf(t.trial)[0]).toMatchObject({ status: 503, attempts: 3, error: 'upstream answered 503 (after 3 attempts)', cost_usd: null });
    } finally {
      await t.close();
    }
  });

  test('an unreachable upstream gives a 502 in the protocol shape', async () => {
    const dead = await startAdHocUpstream(() => {});
    await dead.stop();
    const gw = await startModelGateway({ openaiBaseUrl: `${dead.url}/v1`, maxAttempts: 2 });
    try {
      const trial = gw.newTrial();
      const res = await postJson(`${gw.url}/openai/v1/responses`, bearer(trial.token), codexBody([]));
      expect(res.status).toBe(502);
      expect(res.json()).toEqual({ error: { message: expect.stringMatching(/network error: ECONNREFUSED \(after 2 attempts\)/), type: 'server_error', code: 'aar_upstream_unreachable', param: null } });
      expect(trial.usage).toMatchObject({ turns: 1, answered: 0, upstreamRetries: 1, upstreamFailures: 1 });
    } finally {
      await gw.close();
    }
  });

  test('a timeout, and a connection cut before the first byte, are retried', async () => {
    const t = await setup(
      (res, n) => {
        if (n === 1) return; // never answers: the 300 ms timeout aborts it
        if (n === 2) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.flushHeaders();
          setTimeout(() => res.destroy(), 20); // headers, then the connection dies
          return;
        }
        ok(res);
      },
      { maxAttempts: 3, timeoutMs: 300 },
    );
    try {
      const res = await t.send();
      expect(res.status).toBe(200);
      expect(t.trial.usage).toMatchObject({ answered: 1, upstreamRetries: 2, upstreamFailures: 0 });
    } finally {
      await t.close();
    }
  });

  test('a 400 from upstream is relayed at once, not retried and not a failure', async () => {
    const t = await setup((res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'bad model' } }));
    });
    try {
      const res = await t.send();
      expect(res.status).toBe(400);
      expect(res.json().error.message).toBe('bad model');
      expect(t.upstream.calls).toBe(1);
      expect(t.trial.usage).toMatchObject({ turns: 1, answered: 0, upstreamRetries: 0, upstreamFailures: 0 });
      expect(t.gw.logOf(t.trial)[0]).toMatchObject({ status: 400, attempts: 1, error: 'upstream answered 400' });
    } finally {
      await t.close();
    }
  });

  test('a stream that dies midway is cut for the client too (nothing can be retried once sent)', async () => {
    const t = await setup((res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { model: 'claude-sonnet-4-6', usage: { input_tokens: 10, output_tokens: 1 } } })}\n\n`);
      setTimeout(() => res.destroy(), 30);
    });
    try {
      await expect(t.send()).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 50));
      expect(t.upstream.calls).toBe(1);
      expect(t.trial.usage).toMatchObject({ turns: 1, answered: 0, upstreamFailures: 1, inputTokens: 10 });
      expect(t.gw.logOf(t.trial)[0]).toMatchObject({ status: 0, error: expect.stringContaining('upstream body failed') });
    } finally {
      await t.close();
    }
  });

  test('a client that goes away mid-stream stops the upstream request; it is not an upstream failure', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    const t = await setup((res) => {
      res.on('close', () => upstreamClosed());
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { usage: { input_tokens: 10, output_tokens: 1 } } })}\n\n`);
    });
    try {
      const client = new AbortController();
      const res = await fetch(`${t.gw.url}/anthropic/v1/messages`, { method: 'POST', headers: claudeCodeHeaders(t.trial.token), body: JSON.stringify(claudeCodeBody([])), signal: client.signal });
      await res.body!.getReader().read();
      client.abort();
      await closed;
      await new Promise((r) => setTimeout(r, 50));
      expect(t.trial.usage).toMatchObject({ turns: 1, answered: 0, upstreamFailures: 0, inputTokens: 10 });
      expect(t.gw.logOf(t.trial)[0]).toMatchObject({ status: 200, error: 'the client closed the connection' });
    } finally {
      await t.close();
    }
  });
});
