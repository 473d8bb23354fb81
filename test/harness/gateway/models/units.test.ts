import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { JobConfigSchema } from '../../../../harness/config/schema.js';
import { modelHandlerFor } from '../../../../harness/gateway/models/handler.js';
import { clientHeaders, upstreamHeaders } from '../../../../harness/gateway/models/headers.js';
import { BUILT_IN_PRICES } from '../../../../harness/gateway/models/apis/registry.js';
import { findPrice, parsePriceTable, requestCost } from '../../../../harness/gateway/models/prices.js';
import { startScriptedModelServer } from '../../../doubles/scripted-model/server.js';
import { parseSse, SseReader } from '../../../../harness/gateway/models/sse.js';
import { factsFromJson, StreamUsage } from '../../../../harness/gateway/models/usage.js';
import { GatewayServer } from '../../../../harness/gateway/server.js';
import { ToolService } from '../../../../tools/service.js';
import { ResponseStore } from '../../../../tools/store/store.js';
import { tempDir } from '../../../helpers/data.js';
import { claudeCodeBody, claudeCodeHeaders, postJson } from './fixtures.js';

const table = BUILT_IN_PRICES;

describe('prices', () => {
  test('the built-in price table (the model APIs\' prices.ts) covers the current models', () => {
    for (const m of ['claude-sonnet-4-6', 'claude-haiku-4-5', 'claude-opus-4-1', 'gpt-5.4', 'gpt-5.4-mini', 'gpt-4o', 'gpt-4o-mini', 'gpt-4.1']) {
      expect(findPrice(table, m)?.name).toBe(m);
    }
    expect(table.models['claude-sonnet-4-6']).toEqual({ input: 3, output: 15, cached_input: 0.3, cache_write: 3.75 });
  });

  test('dated variants match their base name; other extensions do not borrow a price', () => {
    expect(findPrice(table, 'claude-haiku-4-5-20251001')?.name).toBe('claude-haiku-4-5');
    expect(findPrice(table, 'claude-opus-4-1-20250805')?.name).toBe('claude-opus-4-1');
    expect(findPrice(table, 'gpt-4o-2024-08-06')?.name).toBe('gpt-4o');
    expect(findPrice(table, 'gpt-4o-mini-2024-07-18')?.name).toBe('gpt-4o-mini');
    expect(findPrice(table, 'gpt-5.4-mini-2026-03-17')?.name).toBe('gpt-5.4-mini');
    expect(findPrice(table, 'gpt-4o-audio-preview')).toBeUndefined();
    expect(findPrice(table, 'claude-opus-4-9')).toBeUndefined();
    expect(findPrice(table, undefined)).toBeUndefined();
  });

  test('cost: uncached input, cache reads, cache writes and output each at their price', () => {
    const price = table.models['claude-sonnet-4-6'];
    expect(requestCost(price, { input: 10_000, cached: 6000, cacheWrite: 1000, output: 500 })).toBeCloseTo((3000 * 3 + 6000 * 0.3 + 1000 * 3.75 + 500 * 15) / 1e6, 12);
    expect(requestCost(table.models['gpt-4o'], { input: 1e6, cached: 0, cacheWrite: 0, output: 1e6 })).toBeCloseTo(12.5, 10);
    expect(() => parsePriceTable('models:\n  x: { input: 1 }\n')).toThrow(/models\.x\.output/);
  });
});

describe('usage reading', () => {
  test('Anthropic: input counts cache reads and writes; a stream takes the last message_delta output', () => {
    expect(factsFromJson('anthropic-messages', { model: 'm', usage: { input_tokens: 5, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 7 } }).tokens).toEqual({ input: 125, cached: 100, cacheWrite: 20, output: 7 });
    const s = new StreamUsage('anthropic-messages');
    s.onEvent('message_start', JSON.stringify({ type: 'message_start', message: { model: 'claude-x', usage: { input_tokens: 9, cache_read_input_tokens: 1, output_tokens: 1 } } }));
    s.onEvent('message_delta', JSON.stringify({ type: 'message_delta', usage: { output_tokens: 30 } }));
    s.onEvent('message_delta', JSON.stringify({ type: 'message_delta', usage: { output_tokens: 42 } }));
    s.onEvent('error', JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }));
    expect(s.facts()).toEqual({ model: 'claude-x', tokens: { input: 10, cached: 1, cacheWrite: 0, output: 42 }, streamError: 'Overloaded' });
  });

  test('OpenAI: Responses and Chat usage, cached tokens inside input', () => {
    const r = new StreamUsage('openai-responses');
    r.onEvent('response.created', JSON.stringify({ type: 'response.created', response: { model: 'gpt-5.4', usage: null } }));
    r.onEvent('response.completed', JSON.stringify({ type: 'response.completed', response: { model: 'gpt-5.4-2026-03-05', usage: { input_tokens: 900, input_tokens_details: { cached_tokens: 800 }, output_tokens: 60 } } }));
    expect(r.facts()).toEqual({ model: 'gpt-5.4-2026-03-05', tokens: { input: 900, cached: 800, cacheWrite: 0, output: 60 }, streamError: undefined });
    const c = new StreamUsage('openai-chat');
    c.onEvent('message', JSON.stringify({ model: 'gpt-4o', choices: [{ delta: { content: 'x' } }], usage: null }));
    c.onEvent('message', JSON.stringify({ model: 'gpt-4o', choices: [], usage: { prompt_tokens: 12, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 4 } } }));
    c.onEvent('message', '[DONE]');
    expect(c.facts().tokens).toEqual({ input: 12, cached: 4, cacheWrite: 0, output: 3 });
    expect(factsFromJson('openai-chat', { model: 'gpt-4o' }).tokens).toBeUndefined();
  });

  test('the SSE reader takes any chunking, CRLF, and characters split across chunks', () => {
    const text = 'event: a\r\ndata: {"t":"é€"}\r\n\r\n: comment\nevent: b\ndata: line1\ndata: line2\n\ndata: [DONE]\n\n';
    const bytes = new TextEncoder().encode(text);
    const events: { event: string; data: string }[] = [];
    const reader = new SseReader((event, data) => events.push({ event, data }));
    for (const b of bytes) reader.push(Uint8Array.of(b));
    reader.end();
    expect(events).toEqual([
      { event: 'a', data: '{"t":"é€"}' },
      { event: 'b', data: 'line1\nline2' },
      { event: 'message', data: '[DONE]' },
    ]);
    expect(parseSse(text)).toEqual(events);
  });
});

describe('headers and retry timing', () => {
  test('the trial token and hop-by-hop headers are dropped, the host key set', () => {
    const incoming = { host: 'gw', connection: 'keep-alive, x-hop', 'x-hop': '1', 'keep-alive': 'timeout=5', te: 'trailers', 'proxy-authorization': 'p', 'transfer-encoding': 'chunked', 'x-api-key': 'aar-token', 'anthropic-beta': 'b', 'anthropic-version': 'v', 'content-length': '10', 'content-type': 'application/json' };
    expect(upstreamHeaders(incoming, 'anthropic', 'sk-host')).toEqual({ 'anthropic-beta': 'b', 'anthropic-version': 'v', 'content-type': 'application/json', 'accept-encoding': 'identity', 'x-api-key': 'sk-host' });
    expect(upstreamHeaders({ authorization: 'Bearer aar-token', 'openai-beta': 'responses=v1' }, 'openai', 'sk-o')).toEqual({ 'openai-beta': 'responses=v1', 'accept-encoding': 'identity', authorization: 'Bearer sk-o' });
    const back = clientHeaders(new Headers({ 'content-type': 'text/event-stream', 'content-encoding': 'gzip', 'content-length': '5', 'request-id': 'req_1', 'retry-after': '2' }));
    expect(back).toEqual({ 'content-type': 'text/event-stream', 'request-id': 'req_1', 'retry-after': '2' });
  });
});

describe('modelHandlerFor', () => {
  const config = (models: Record<string, unknown> = {}) => JobConfigSchema.parse({ tasks: { path: 'tasks' }, agents: [{ name: 'claude-code' }], models });

  test('builds a handler from the job config, with the package price table or a configured one', async () => {
    expect(modelHandlerFor(config())).toBeInstanceOf(Function);
    const dirs = tempDir('aar-prices-');
    const upstream = await startScriptedModelServer({ script: [{ text: 'ok' }] });
    const saved = process.env.ANTHROPIC_API_KEY;
    process.env.ANTHROPIC_API_KEY = 'sk-from-env';
    try {
      writeFileSync(path.join(dirs.dir, 'p.yaml'), 'models:\n  scripted-model: { input: 1000000, output: 0, cached_input: 0 }\n');
      const handler = modelHandlerFor(config({ anthropic_base_url: upstream.anthropicBaseUrl, prices: 'p.yaml', max_attempts: 1 }), (p) => path.join(dirs.dir, p))!;
      const gateway = new GatewayServer({ tools: new ToolService({ mode: 'replay', store: new ResponseStore(dirs.dir) }), models: handler });
      const url = await gateway.listenTcp();
      const trial = gateway.trials.register({ trialId: 't', toolLogPath: path.join(dirs.dir, 'tools.jsonl') });
      const res = await postJson(`${url}/anthropic/v1/messages`, claudeCodeHeaders(trial.token), { ...claudeCodeBody([], false), model: 'scripted-model' });
      expect(res.status).toBe(200);
      expect(trial.usage).toMatchObject({ turns: 1, answered: 1, costUsd: 1000 });
      expect(upstream.requests[0].credential?.header).toBe('x-api-key');
      await gateway.close();
    } finally {
      if (saved === undefined) delete process.env.ANTHROPIC_API_KEY;
      else process.env.ANTHROPIC_API_KEY = saved;
      await upstream.stop();
      dirs.cleanup();
    }
  });
});
