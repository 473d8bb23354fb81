import { keyFingerprint } from '../../../doubles/scripted-model/server.js';
import { SseReader } from '../../../../harness/gateway/models/sse.js';
import {
  bearer,
  claudeCodeBody,
  claudeCodeHeaders,
  codexBody,
  eventData,
  HOST_ANTHROPIC_KEY,
  HOST_OPENAI_KEY,
  json,
  miniSweBody,
  postJson,
  startAdHocUpstream,
  startModelGateway,
  useScriptedGateway,
} from './fixtures.js';

const SCRIPT = [
  { bash: `tools fetch_webpage '{"url":"https://en.wikipedia.org/wiki/Mount_Everest"}'` },
  { bash: 'printf 6 > /app/answer.txt', usage: { input: 5000, output: 120, cached: 4000 } },
  { text: 'Done.' },
];

const env = useScriptedGateway(SCRIPT);

/** Rebuilds Claude Code's assistant message from a streamed response. */
function anthropicAssistant(events: Record<string, any>[]) {
  const blocks: any[] = [];
  for (const e of events) {
    if (e.type === 'content_block_start') blocks[e.index] = { ...e.content_block, partial: '' };
    if (e.type === 'content_block_delta' && e.delta.type === 'text_delta') blocks[e.index].text += e.delta.text;
    if (e.type === 'content_block_delta' && e.delta.type === 'input_json_delta') blocks[e.index].partial += e.delta.partial_json;
  }
  return blocks.map(({ partial, ...b }) => (b.type === 'tool_use' ? { ...b, input: JSON.parse(partial) } : b));
}

describe('the model gateway proxies and counts', () => {
  test('a Claude Code conversation (Messages, streaming): relayed, counted exactly as served, logged, key swapped', async () => {
    const trial = env.gw.newTrial();
    const servedBefore = { ...env.upstream.served };
    const firstRequest = env.upstream.requests.length;
    const messages: any[] = [{ role: 'user', content: [{ type: 'text', text: 'Solve the leg in /app/instruction.md' }] }];
    const stops: string[] = [];
    for (let turn = 0; turn < 3; turn++) {
      const res = await postJson(`${env.gw.url}/anthropic/v1/messages?beta=true`, claudeCodeHeaders(trial.token), claudeCodeBody(messages));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
      const events = eventData(res.events());
      stops.push(events.find((e) => e.type === 'message_delta')!.delta.stop_reason);
      const content = anthropicAssistant(events);
      messages.push({ role: 'assistant', content });
      const tool = content.find((b) => b.type === 'tool_use');
      if (tool) messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: tool.id, content: 'ok' }] });
    }
    expect(stops).toEqual(['tool_use', 'tool_use', 'end_turn']);
    expect(messages[1].content[0]).toMatchObject({ type: 'tool_use', name: 'Bash', input: { command: SCRIPT[0].bash } });

    const served = { inputTokens: env.upstream.served.inputTokens - servedBefore.inputTokens, outputTokens: env.upstream.served.outputTokens - servedBefore.outputTokens, cachedTokens: env.upstream.served.cachedTokens - servedBefore.cachedTokens };
    expect(served).toEqual({ inputTokens: 1000 + 5000 + 1020, outputTokens: 50 + 120 + 50, cachedTokens: 4000 });
    expect(trial.usage).toMatchObject({ turns: 3, answered: 3, ...served, budgetExceeded: false, upstreamRetries: 0, upstreamFailures: 0 });
    // claude-sonnet-4-6: $3 in, $0.30 cached, $15 out per million.
    const cost = ((1000 + 1000 + 1020) * 3 + 4000 * 0.3 + 220 * 15) / 1e6;
    expect(trial.usage.costUsd).toBeCloseTo(cost, 12);

    const log = env.gw.logOf(trial);
    expect(log).toHaveLength(3);
    expect(log[1]).toMatchObject({ api: 'anthropic-messages', model: 'claude-sonnet-4-6', stream: true, status: 200, turn: 2, input_tokens: 5000, output_tokens: 120, cached_tokens: 4000, cache_write_tokens: 0, attempts: 1 });
    expect(log[1].cost_usd).toBeCloseTo((1000 * 3 + 4000 * 0.3 + 120 * 15) / 1e6, 12);
    expect(Object.keys(log[0]).slice(0, 6)).toEqual(['ts', 'api', 'model', 'stream', 'status', 'turn']);
    expect(log.every((l) => typeof l.latency_ms === 'number' && !('error' in l))).toBe(true);

    const seen = env.upstream.requests.slice(firstRequest);
    expect(seen.map((r) => r.path)).toEqual(Array(3).fill('/v1/messages?beta=true'));
    for (const r of seen) {
      expect(r.credential).toEqual({ header: 'x-api-key', sha256: keyFingerprint(HOST_ANTHROPIC_KEY) });
      expect(JSON.stringify(r)).not.toContain(trial.token);
      expect(r.headers).toMatchObject({ 'anthropic-version': '2023-06-01', 'anthropic-beta': 'claude-code-20250219,interleaved-thinking-2025-05-14', 'content-type': 'application/json' });
      expect(r.headers).toMatchObject({ 'user-agent': 'claude-cli/2.1.332 (external, sdk-cli)', 'accept-encoding': 'identity' });
    }
    expect(seen[2].body).toEqual(claudeCodeBody(messages.slice(0, 5)));
  });

  test('Messages without streaming, and count_tokens forwarded but not a turn', async () => {
    const trial = env.gw.newTrial();
    const res = await postJson(`${env.gw.url}/anthropic/v1/messages`, claudeCodeHeaders(trial.token), claudeCodeBody([{ role: 'user', content: 'go' }], false));
    expect(res.json()).toMatchObject({ type: 'message', stop_reason: 'tool_use', usage: { input_tokens: 1000, output_tokens: 50 } });
    const count = await postJson(`${env.gw.url}/anthropic/v1/messages/count_tokens?beta=true`, claudeCodeHeaders(trial.token), { model: 'claude-sonnet-4-6', messages: [{ role: 'user', content: 'go' }] });
    expect(count.status).toBe(200);
    expect(count.json()).toHaveProperty('input_tokens');
    expect(env.upstream.requests.at(-1)!.path).toBe('/v1/messages/count_tokens?beta=true');
    expect(trial.usage).toMatchObject({ turns: 1, answered: 1, inputTokens: 1000, outputTokens: 50 });
    expect(env.gw.logOf(trial).map((l) => [l.api, l.turn, l.stream])).toEqual([
      ['anthropic-messages', 1, false],
      ['anthropic-count-tokens', null, false],
    ]);
  });

  test('a Codex conversation (Responses, streaming and not) with the Bearer key swapped', async () => {
    const trial = env.gw.newTrial();
    const firstRequest = env.upstream.requests.length;
    const input: any[] = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Solve the leg' }] }];
    const res = await postJson(`${env.gw.url}/openai/v1/responses`, bearer(trial.token), codexBody(input));
    const events = eventData(res.events());
    expect(events.at(-1)).toMatchObject({ type: 'response.completed', response: { usage: { input_tokens: 1000, output_tokens: 50 } } });
    const call = events.find((e) => e.type === 'response.output_item.done')!.item;
    expect(call).toMatchObject({ type: 'function_call', name: 'exec_command' });
    expect(JSON.parse(call.arguments)).toEqual({ cmd: SCRIPT[0].bash });
    input.push(call, { type: 'function_call_output', call_id: call.call_id, output: 'page text' });
    const second = await postJson(`${env.gw.url}/openai/v1/responses`, bearer(trial.token), codexBody(input, false));
    expect(second.json()).toMatchObject({ object: 'response', status: 'completed', usage: { input_tokens: 5000, input_tokens_details: { cached_tokens: 4000 } } });
    expect(trial.usage).toMatchObject({ turns: 2, answered: 2, inputTokens: 6000, outputTokens: 170, cachedTokens: 4000 });
    // gpt-5.4: $2.50 in, $0.25 cached, $15 out per million.
    expect(trial.usage.costUsd).toBeCloseTo((2000 * 2.5 + 4000 * 0.25 + 170 * 15) / 1e6, 12);
    expect(env.gw.logOf(trial).map((l) => [l.api, l.stream, l.turn, l.input_tokens, l.cached_tokens])).toEqual([
      ['openai-responses', true, 1, 1000, 0],
      ['openai-responses', false, 2, 5000, 4000],
    ]);
    for (const r of env.upstream.requests.slice(firstRequest)) {
      expect(r.path).toBe('/v1/responses');
      expect(r.credential).toEqual({ header: 'authorization', sha256: keyFingerprint(HOST_OPENAI_KEY) });
    }
  });

  test('mini-swe-agent (Chat Completions): streaming gets include_usage added and its usage chunk counted', async () => {
    const trial = env.gw.newTrial();
    const plain = await postJson(`${env.gw.url}/openai/v1/chat/completions`, bearer(trial.token), miniSweBody([{ role: 'user', content: 'task' }]));
    const message = plain.json().choices[0].message;
    expect(message.content).toContain('```bash\n' + SCRIPT[0].bash + '\n```');
    const history = [{ role: 'user', content: 'task' }, { role: 'assistant', content: message.content }, { role: 'user', content: 'output' }];
    const streamed = await postJson(`${env.gw.url}/openai/v1/chat/completions`, bearer(trial.token), miniSweBody(history, true));
    const chunks = eventData(streamed.events());
    expect(streamed.events().at(-1)!.data).toBe('[DONE]');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 5000, completion_tokens: 120, prompt_tokens_details: { cached_tokens: 4000 } } });
    expect(env.upstream.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    expect(trial.usage).toMatchObject({ turns: 2, answered: 2, inputTokens: 6000, outputTokens: 170, cachedTokens: 4000 });
    expect(env.gw.logOf(trial).map((l) => [l.api, l.stream, l.model, l.output_tokens])).toEqual([
      ['openai-chat', false, 'gpt-4o-mini', 50],
      ['openai-chat', true, 'gpt-4o-mini', 120],
    ]);
  });

  test('a stream is relayed as it arrives, not buffered', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = await startAdHocUpstream(async (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { model: 'claude-haiku-4-5-20251001', usage: { input_tokens: 7, output_tokens: 1 } } })}\n\n`);
      await released;
      res.end(`event: message_delta\ndata: ${JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } })}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n`);
    });
    const local = await startModelGateway({ anthropicBaseUrl: slow.url });
    try {
      const trial = local.newTrial();
      const res = await fetch(`${local.url}/anthropic/v1/messages`, { method: 'POST', headers: claudeCodeHeaders(trial.token), body: JSON.stringify({ model: 'claude-haiku-4-5', stream: true, messages: [] }) });
      const seen: string[] = [];
      const reader = new SseReader((event) => seen.push(event));
      const body = res.body!.getReader();
      while (!seen.includes('message_start')) reader.push((await body.read()).value!);
      expect(seen).toEqual(['message_start']);
      release();
      for (let r = await body.read(); !r.done; r = await body.read()) reader.push(r.value);
      reader.end();
      expect(seen).toEqual(['message_start', 'message_delta', 'message_stop']);
      await new Promise((r) => setTimeout(r, 20));
      expect(trial.usage).toMatchObject({ turns: 1, answered: 1, inputTokens: 7, outputTokens: 3 });
      expect(local.logOf(trial)[0]).toMatchObject({ model: 'claude-haiku-4-5-20251001', cost_usd: (7 * 1 + 3 * 5) / 1e6 });
    } finally {
      release();
      await local.close();
      await slow.stop();
    }
  });

  test('unknown routes get a 404 in the protocol shape; bad or missing trial tokens get the server 401', async () => {
    const trial = env.gw.newTrial();
    const before = env.upstream.requests.length;
    const a = await postJson(`${env.gw.url}/anthropic/v1/models`, claudeCodeHeaders(trial.token), {});
    expect(a.status).toBe(404);
    expect(a.json()).toMatchObject({ type: 'error', error: { type: 'not_found_error' } });
    const o = await postJson(`${env.gw.url}/openai/v1/embeddings`, bearer(trial.token), {});
    expect(o.status).toBe(404);
    expect(o.json()).toMatchObject({ error: { message: expect.stringContaining('/openai/v1/embeddings') } });
    expect((await postJson(`${env.gw.url}/anthropic/v1/messages`, json, claudeCodeBody([]))).status).toBe(401);
    expect((await postJson(`${env.gw.url}/anthropic/v1/messages`, claudeCodeHeaders('aar-forged'), claudeCodeBody([]))).status).toBe(401);
    expect((await postJson(`${env.gw.url}/openai/v1/responses`, bearer(HOST_OPENAI_KEY), codexBody([]))).status).toBe(401);
    expect(env.upstream.requests.length).toBe(before);
    expect(trial.usage.turns).toBe(0);
  });

  test('without a host key requests fail clearly and the failure shows in the usage', async () => {
    const local = await startModelGateway({ anthropicBaseUrl: env.upstream.anthropicBaseUrl, openaiBaseUrl: env.upstream.openaiBaseUrl, anthropicApiKey: '', openaiApiKey: '' });
    const before = env.upstream.requests.length;
    try {
      const trial = local.newTrial();
      const a = await postJson(`${local.url}/anthropic/v1/messages`, claudeCodeHeaders(trial.token), claudeCodeBody([]));
      expect(a.status).toBe(401);
      expect(a.json().error.message).toMatch(/no ANTHROPIC_API_KEY/);
      const o = await postJson(`${local.url}/openai/v1/chat/completions`, bearer(trial.token), miniSweBody([]));
      expect(o.json().error).toMatchObject({ code: 'aar_no_api_key', message: expect.stringMatching(/no OPENAI_API_KEY/) });
      expect(trial.usage).toMatchObject({ turns: 2, answered: 0, upstreamFailures: 2 });
      expect(local.logOf(trial).map((l) => [l.status, l.attempts])).toEqual([
        [401, 0],
        [401, 0],
      ]);
      expect(env.upstream.requests.length).toBe(before);
    } finally {
      await local.close();
    }
  });
});
