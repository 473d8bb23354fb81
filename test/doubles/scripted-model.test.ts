import { keyFingerprint, startScriptedModelServer, type ScriptedModelServer } from './scripted-model/server.js';
import { claudeCodeBody, claudeCodeHeaders, codexBody, eventData, json, miniSweBody, postJson } from '../harness/gateway/models/fixtures.js';

const KEY = 'sk-upstream-key';
const SCRIPT = [
  { bash: 'tools web_search \'{"query":"Everest"}\'', say: 'Searching.' },
  { bash: 'printf 6 > /app/answer.txt', usage: { input: 3000, output: 70, cached: 2500 } },
  { text: 'The answer is 6.' },
];

let model: ScriptedModelServer;
beforeAll(async () => {
  model = await startScriptedModelServer({ script: SCRIPT, requireKey: KEY });
});
afterAll(() => model.stop());

const anthropic = (body: unknown) => postJson(`${model.anthropicBaseUrl}/v1/messages?beta=true`, claudeCodeHeaders(KEY), body);
const responses = (body: unknown) => postJson(`${model.openaiBaseUrl}/responses`, { ...json, authorization: `Bearer ${KEY}` }, body);
const chat = (body: unknown) => postJson(`${model.openaiBaseUrl}/chat/completions`, { ...json, authorization: `Bearer ${KEY}` }, body);
const types = (events: { event: string }[]) => events.map((e) => e.event);

describe('the scripted model server', () => {
  test('Anthropic stream: the real event sequence, Bash called with {command, description}, usage split into cache reads', async () => {
    const res = await anthropic(claudeCodeBody([{ role: 'user', content: 'go' }]));
    const events = res.events();
    expect(types(events)).toEqual([
      'message_start', 'ping',
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop', // the "say" text
      'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop',
      'message_delta', 'message_stop',
    ]);
    const data = eventData(events);
    expect(data.map((d) => d.type)).toEqual(types(events));
    expect(data[0].message).toMatchObject({ role: 'assistant', model: 'claude-sonnet-4-6', content: [], usage: { input_tokens: 1000, cache_read_input_tokens: 0, output_tokens: 1 } });
    expect(data.find((d) => d.type === 'content_block_start' && d.index === 0)!.content_block).toEqual({ type: 'text', text: '' });
    expect(data.find((d) => d.type === 'content_block_start' && d.index === 1)!.content_block).toMatchObject({ type: 'tool_use', name: 'Bash', input: {}, id: expect.stringMatching(/^toolu_/) });
    const input = JSON.parse(data.filter((d) => d.delta?.type === 'input_json_delta').map((d) => d.delta.partial_json).join(''));
    expect(input).toEqual({ command: SCRIPT[0].bash, description: 'Run a shell command' });
    expect(data.at(-2)).toEqual({ type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 50 } });

    // Turn 2 (one assistant message in the history), not streamed: cached input reported as cache reads.
    const second = await anthropic(claudeCodeBody([{ role: 'user', content: 'go' }, { role: 'assistant', content: [] }, { role: 'user', content: 'result' }], false));
    expect(second.json()).toMatchObject({ stop_reason: 'tool_use', usage: { input_tokens: 500, cache_read_input_tokens: 2500, output_tokens: 70 }, content: [{ type: 'tool_use', input: { command: SCRIPT[1].bash } }] });
    const last = await anthropic(claudeCodeBody([{ role: 'assistant', content: [] }, { role: 'assistant', content: [] }]));
    const text = eventData(last.events()).filter((d) => d.delta?.type === 'text_delta').map((d) => d.delta.text).join('');
    expect(text).toBe('The answer is 6.');
    expect(eventData(last.events()).find((d) => d.type === 'message_delta')!.delta.stop_reason).toBe('end_turn');
  });

  test('Responses stream: the real event sequence; exec_command {cmd} for Codex, shell {command: [...]} for older tools', async () => {
    const res = await responses(codexBody([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }]));
    const events = res.events();
    expect(types(events)).toEqual([
      'response.created', 'response.in_progress', 'response.output_item.added',
      'response.function_call_arguments.delta', 'response.function_call_arguments.delta', 'response.function_call_arguments.delta',
      'response.function_call_arguments.done', 'response.output_item.done', 'response.completed',
    ]);
    const data = eventData(events);
    expect(data.map((d) => d.sequence_number)).toEqual(data.map((_, i) => i));
    const item = data[7].item;
    expect(item).toMatchObject({ type: 'function_call', name: 'exec_command', call_id: expect.stringMatching(/^call_/), status: 'completed' });
    expect(JSON.parse(item.arguments)).toEqual({ cmd: SCRIPT[0].bash });
    expect(data[8].response).toMatchObject({ status: 'completed', output: [item], usage: { input_tokens: 1000, input_tokens_details: { cached_tokens: 0 }, output_tokens: 50, total_tokens: 1050 } });

    const history = [item, { type: 'function_call_output', call_id: item.call_id, output: 'x' }, { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'hm' }] }];
    const final = await responses(codexBody(history));
    expect(types(final.events())).toEqual([
      'response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added',
      'response.output_text.delta', 'response.output_text.delta', 'response.output_text.delta', 'response.output_text.done',
      'response.content_part.done', 'response.output_item.done', 'response.completed',
    ]);
    expect(eventData(final.events()).at(-2)!.item).toMatchObject({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'The answer is 6.' }] });

    const shellTool = { type: 'function', name: 'shell', parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } }, workdir: { type: 'string' } } } };
    const old = await responses({ model: 'gpt-4.1', input: [item], tools: [shellTool] });
    expect(old.json().output[0]).toMatchObject({ type: 'function_call', name: 'shell' });
    expect(JSON.parse(old.json().output[0].arguments)).toEqual({ command: ['bash', '-lc', SCRIPT[1].bash] });
  });

  test('Chat Completions: ```bash blocks and the mini-swe-agent submit without tools, tool calls with one; chunks, usage chunk, [DONE]', async () => {
    const first = await chat(miniSweBody([{ role: 'user', content: 'go' }]));
    expect(first.json().choices[0]).toMatchObject({ finish_reason: 'stop', message: { role: 'assistant', content: `THOUGHT: Searching.\n\n\`\`\`bash\n${SCRIPT[0].bash}\n\`\`\`` } });
    const done = await chat({ ...miniSweBody([{ role: 'assistant', content: 'a' }, { role: 'assistant', content: 'b' }], true), stream_options: { include_usage: true } });
    const chunks = eventData(done.events());
    expect(done.events().at(-1)!.data).toBe('[DONE]');
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? '').join('')).toBe('THOUGHT: The answer is 6.\n\n```bash\necho COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT\n```');
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe('stop');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 1020, completion_tokens: 50, prompt_tokens_details: { cached_tokens: 0 } } });
    const noUsage = eventData((await chat(miniSweBody([], true))).events());
    expect(noUsage.some((c) => c.usage)).toBe(false);

    const bashTool = { type: 'function', function: { name: 'bash', parameters: { type: 'object', properties: { command: { type: 'string' } } } } };
    const tooled = await chat({ ...miniSweBody([{ role: 'user', content: 'go' }]), tools: [bashTool] });
    expect(tooled.json().choices[0]).toMatchObject({ finish_reason: 'tool_calls', message: { tool_calls: [{ type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: SCRIPT[0].bash }) } }] } });
  });

  test('records requests without secrets, refuses other keys, answers count_tokens, totals what it served', async () => {
    const fresh = await startScriptedModelServer({ script: [{ text: 'ok' }] });
    try {
      await postJson(`${fresh.anthropicBaseUrl}/v1/messages`, claudeCodeHeaders(KEY), claudeCodeBody([], false));
      await postJson(`${fresh.openaiBaseUrl}/chat/completions`, { ...json, authorization: `Bearer ${KEY}` }, { ...miniSweBody([]), stream: true, stream_options: { include_usage: true } });
      const count = await postJson(`${fresh.anthropicBaseUrl}/v1/messages/count_tokens`, claudeCodeHeaders(KEY), { messages: [] });
      expect(count.json()).toEqual({ input_tokens: expect.any(Number) });
      expect((await postJson(`${fresh.url}/v1/models`, json, {})).status).toBe(404);
      expect(fresh.served).toEqual({ turns: 2, inputTokens: 2000, outputTokens: 100, cachedTokens: 0 });
      const [first] = fresh.requests;
      expect(first).toMatchObject({ method: 'POST', path: '/v1/messages', turn: 0, credential: { header: 'x-api-key', sha256: keyFingerprint(KEY) }, body: claudeCodeBody([], false) });
      expect(JSON.stringify(fresh.requests)).not.toContain(KEY);
      expect(first.headers['anthropic-beta']).toContain('claude-code');
    } finally {
      await fresh.stop();
    }
    const wrong = await postJson(`${model.anthropicBaseUrl}/v1/messages`, claudeCodeHeaders('sk-wrong'), claudeCodeBody([]));
    expect(wrong.status).toBe(401);
    expect(wrong.json()).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
  });
});
