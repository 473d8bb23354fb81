import { readFileSync } from 'node:fs';
import { ConversationLog, SECRET_MARK } from '../../../../harness/gateway/models/conversation.js';
import { parseJobConfig } from '../../../../harness/config/load.js';
import { gatewayOptionsOf } from '../../../../harness/gateway/models/handler.js';
import { configProblems } from '../../../helpers/config-problems.js';
import { bearer, claudeCodeBody, claudeCodeHeaders, codexBody, eventData, HOST_ANTHROPIC_KEY, HOST_OPENAI_KEY, miniSweBody, postJson, startAdHocUpstream, startModelGateway, useScriptedGateway } from './fixtures.js';

type Json = Record<string, any>;

const SCRIPT = [{ bash: 'cat /app/instruction.md', say: 'Let me read the leg first.' }, { bash: 'printf 6 > /app/answer.txt' }, { text: 'The answer is 6.' }];

/** The answer with the ids the server makes afresh for every answer (and its clock) taken out. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, ['id', 'call_id', 'created', 'created_at'].includes(k) ? 'ID' : withoutIds(v)]));
  }
  return value;
}

const CHAT_SHELL_TOOL = { type: 'function', function: { name: 'bash', description: 'Runs a command', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } } };

const env = useScriptedGateway(SCRIPT);

describe('the model log keeps the conversation', () => {
  test('Anthropic Messages: the request as sent, the answer as received; a stream reassembled equals the same turn unstreamed', async () => {
    const trial = env.gw.newTrial();
    const messages = [{ role: 'user', content: [{ type: 'text', text: 'Solve the leg in /app/instruction.md' }] }];
    const plain = await postJson(`${env.gw.url}/anthropic/v1/messages`, claudeCodeHeaders(trial.token), claudeCodeBody(messages, false));
    const streamed = await postJson(`${env.gw.url}/anthropic/v1/messages?beta=true`, claudeCodeHeaders(trial.token), claudeCodeBody(messages, true));
    const events = eventData(streamed.events());
    const [plainLine, streamLine] = env.gw.logOf(trial);

    const { tools, ...sent } = claudeCodeBody(messages, false);
    expect(plainLine.request).toEqual(sent);
    expect(plainLine.tools).toEqual(tools);
    expect(plainLine.response).toEqual(plain.json());
    // The stream: message_start's id and the tool_use id as the server sent them, every block whole.
    const toolUseId = events.find((e) => e.type === 'content_block_start' && e.content_block.type === 'tool_use')!.content_block.id;
    expect(streamLine.response).toMatchObject({ id: events[0].message.id, stop_reason: 'tool_use', usage: { input_tokens: 1000, output_tokens: 50 } });
    expect((streamLine.response as Json).content).toEqual([
      { type: 'text', text: 'Let me read the leg first.' },
      { type: 'tool_use', id: toolUseId, name: 'Bash', input: { command: 'cat /app/instruction.md', description: 'Run a shell command' } },
    ]);
    expect(withoutIds(streamLine.response)).toEqual(withoutIds(plain.json()));
  });

  test('OpenAI Chat, with and without a tool, streamed and not: each reassembled stream equals the same turn unstreamed', async () => {
    for (const tools of [undefined, [CHAT_SHELL_TOOL]]) {
      const trial = env.gw.newTrial();
      const conversation = [{ role: 'user', content: 'Solve the leg.' }, { role: 'assistant', content: 'ok' }];
      const body = (stream: boolean) => ({ ...miniSweBody(conversation, stream), ...(tools ? { tools } : {}) });
      const plain = await postJson(`${env.gw.url}/openai/v1/chat/completions`, bearer(trial.token), body(false));
      const streamed = await postJson(`${env.gw.url}/openai/v1/chat/completions`, bearer(trial.token), body(true));
      expect(streamed.status).toBe(200);
      const chunks = eventData(streamed.events());
      const [plainLine, streamLine] = env.gw.logOf(trial);
      expect(plainLine.response).toEqual(plain.json());
      expect(streamLine.request).toEqual({ ...miniSweBody(conversation, true) });
      expect(streamLine.response).toMatchObject({ id: chunks[0].id, object: 'chat.completion', model: 'gpt-4o-mini' });
      expect(withoutIds(streamLine.response)).toEqual(withoutIds(plain.json()));
      const message = (streamLine.response as Json).choices[0].message;
      if (tools) expect(message.tool_calls[0]).toEqual({ id: chunks.find((c) => c.choices[0]?.delta.tool_calls)!.choices[0].delta.tool_calls[0].id, type: 'function', function: { name: 'bash', arguments: '{"command":"printf 6 > /app/answer.txt"}' } });
      else expect(message.content).toContain('printf 6 > /app/answer.txt');
    }
  });

  test('OpenAI Responses streamed: the final response, output included', async () => {
    const trial = env.gw.newTrial();
    const res = await postJson(`${env.gw.url}/openai/v1/responses`, bearer(trial.token), codexBody([{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }]));
    const completed = eventData(res.events()).find((e) => e.type === 'response.completed')!;
    expect(env.gw.logOf(trial)[0].response).toEqual(completed.response);
  });

  test('tool definitions are written once per distinct set, each line naming its set by hash', async () => {
    const trial = env.gw.newTrial();
    const send = (body: Json) => postJson(`${env.gw.url}/anthropic/v1/messages`, claudeCodeHeaders(trial.token), body);
    const first = claudeCodeBody([{ role: 'user', content: 'go' }], false);
    await send(first);
    await send(claudeCodeBody([{ role: 'user', content: 'go' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'on' }], false));
    await send({ ...first, tools: first.tools.slice(0, 1) });
    await send(first);
    const log = env.gw.logOf(trial);
    expect(log.map((l) => 'tools' in l)).toEqual([true, false, true, false]);
    expect(log[1].tools_sha256).toBe(log[0].tools_sha256);
    expect(log[3].tools_sha256).toBe(log[0].tools_sha256);
    expect(log[2].tools_sha256).not.toBe(log[0].tools_sha256);
    expect(log[2].tools).toEqual(first.tools.slice(0, 1));
  });

  test('thinking blocks and their signatures, tool input, and Chat reasoning are reassembled from a stream', async () => {
    const sse = (events: Json[]) => events.map((e) => `event: ${e.type ?? 'message'}\ndata: ${JSON.stringify(e)}\n\n`).join('');
    const anthropic = [
      { type: 'message_start', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [], stop_reason: null, usage: { input_tokens: 9, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'The leg asks for ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'a height.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'sig-abc' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'opaque' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'content_block_start', index: 2, content_block: { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {} } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '{"comm' } },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: 'and":"ls"}' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: 30 } },
      { type: 'message_stop' },
    ];
    const chat = [
      { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-r1', choices: [{ index: 0, delta: { role: 'assistant', content: '', reasoning_content: 'Think ' } }] },
      { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-r1', choices: [{ index: 0, delta: { reasoning_content: 'first.' } }] },
      { id: 'c1', object: 'chat.completion.chunk', created: 1, model: 'deepseek-r1', choices: [{ index: 0, delta: { content: '6' }, finish_reason: 'stop' }] },
    ];
    const fake = await startAdHocUpstream((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(req.url!.includes('chat') ? sse(chat) + 'data: [DONE]\n\n' : sse(anthropic));
    });
    const local = await startModelGateway({ anthropicBaseUrl: fake.url, openaiBaseUrl: `${fake.url}/v1` });
    try {
      const trial = local.newTrial();
      await postJson(`${local.url}/anthropic/v1/messages`, claudeCodeHeaders(trial.token), claudeCodeBody([{ role: 'user', content: 'go' }]));
      await postJson(`${local.url}/openai/v1/chat/completions`, bearer(trial.token), miniSweBody([{ role: 'user', content: 'go' }], true));
      const [messages, completion] = local.logOf(trial).map((l) => l.response as Json);
      expect(messages).toEqual({
        id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', stop_reason: 'tool_use', stop_sequence: null, usage: { input_tokens: 9, output_tokens: 30 },
        content: [
          { type: 'thinking', thinking: 'The leg asks for a height.', signature: 'sig-abc' },
          { type: 'redacted_thinking', data: 'opaque' },
          { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'ls' } },
        ],
      });
      expect(completion).toEqual({ id: 'c1', object: 'chat.completion', created: 1, model: 'deepseek-r1', choices: [{ index: 0, message: { role: 'assistant', content: '6', reasoning_content: 'Think first.' }, logprobs: null, finish_reason: 'stop' }] });
    } finally {
      await local.close();
      await fake.stop();
    }
  });

  test('neither a host key nor the trial token appears in the log, even when the agent or the upstream sends them back', async () => {
    // An upstream that answers with the key it was given; an agent whose tool result shows its environment.
    const echo = await startAdHocUpstream((req, res) => {
      const key = String(req.headers['x-api-key'] ?? req.headers.authorization);
      const body = req.url!.includes('messages')
        ? { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-6', content: [{ type: 'text', text: `my key is ${key}` }], stop_reason: 'end_turn', usage: { input_tokens: 1, output_tokens: 1 } }
        : { error: { message: `Incorrect API key provided: ${key}`, type: 'invalid_request_error', code: 'invalid_api_key' } };
      res.writeHead(req.url!.includes('messages') ? 200 : 401, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
    const local = await startModelGateway({ anthropicBaseUrl: echo.url, openaiBaseUrl: `${echo.url}/v1` });
    try {
      const trial = local.newTrial();
      const env = `ANTHROPIC_API_KEY=${trial.token}\nAAR_TRIAL_TOKEN=${trial.token}\n`;
      const messages = [{ role: 'user', content: 'go' }, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'env' } }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: env }] }];
      expect((await postJson(`${local.url}/anthropic/v1/messages`, claudeCodeHeaders(trial.token), claudeCodeBody(messages, false))).status).toBe(200);
      expect((await postJson(`${local.url}/openai/v1/chat/completions`, bearer(trial.token), miniSweBody([{ role: 'user', content: `token ${trial.token}` }]))).status).toBe(401);
      const text = readFileSync(trial.modelLogPath!, 'utf8');
      for (const secret of [trial.token, HOST_ANTHROPIC_KEY, HOST_OPENAI_KEY]) expect(text).not.toContain(secret);
      const [first, second] = local.logOf(trial);
      expect((first.response as Json).content[0].text).toBe(`my key is ${SECRET_MARK}`);
      expect(JSON.stringify(first.request)).toContain(`ANTHROPIC_API_KEY=${SECRET_MARK}`);
      expect((second.response as Json).error.message).toBe(`Incorrect API key provided: Bearer ${SECRET_MARK}`);
    } finally {
      await local.close();
      await echo.stop();
    }
  });

  test('bounded: past the per-trial cap a line keeps its counts and says why its conversation is missing; the requests go on', async () => {
    const local = await startModelGateway({ anthropicBaseUrl: env.upstream.anthropicBaseUrl, openaiBaseUrl: env.upstream.openaiBaseUrl, modelLogMaxBytes: 6000 });
    try {
      const trial = local.newTrial();
      for (let i = 0; i < 4; i++) {
        const res = await postJson(`${local.url}/anthropic/v1/messages`, claudeCodeHeaders(trial.token), claudeCodeBody([{ role: 'user', content: 'x'.repeat(1500) }], false));
        expect(res.status).toBe(200);
      }
      const log = local.logOf(trial);
      expect(log.map((l) => 'request' in l)).toEqual([true, true, false, false]);
      expect(log[2]).toMatchObject({ status: 200, turn: 3, input_tokens: 1000, conversation_not_logged: expect.stringContaining('cap of 6000 bytes') });
      expect(log[3].conversation_not_logged).toBeDefined();
      expect(trial.usage).toMatchObject({ turns: 4, answered: 4 });
      expect(readFileSync(trial.modelLogPath!).length).toBeLessThan(6000 + 2 * 1000);
    } finally {
      await local.close();
    }
  });

  test('a line longer than readers take keeps its counts alone; the lines after it keep their conversation', () => {
    const log = new ConversationLog(100_000, 2000);
    const entry = { ts: 1, api: 'anthropic-messages', model: 'm', stream: false, status: 200, turn: 1, input_tokens: 1, output_tokens: 1, cached_tokens: 0, cache_write_tokens: 0, cost_usd: null, latency_ms: 1, attempts: 1 };
    const lines = [3000, 10, 10].map((n) => JSON.parse(log.line(entry, { request: { messages: ['x'.repeat(n)] }, response: { content: [] } })) as Json);
    expect(lines[0]).toEqual({ ...entry, conversation_not_logged: expect.stringContaining('over the line limit of 2000') });
    expect(lines.slice(1).map((l) => l.request)).toEqual([{ messages: ['x'.repeat(10)] }, { messages: ['x'.repeat(10)] }]);
    expect(log.capReached).toBe(false);
  });

  test('retries are listed on the line of the request they served', async () => {
    const flaky = await startAdHocUpstream((_req, res, _body, n) => {
      if (n === 1) {
        res.writeHead(503, { 'content-type': 'application/json' });
        return void res.end('{"error":{"message":"busy"}}');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'msg', type: 'message', role: 'assistant', model: 'm', content: [{ type: 'text', text: 'hi' }], usage: { input_tokens: 1, output_tokens: 1 } }));
    });
    const local = await startModelGateway({ anthropicBaseUrl: flaky.url });
    try {
      const trial = local.newTrial();
      await postJson(`${local.url}/anthropic/v1/messages`, claudeCodeHeaders(trial.token), claudeCodeBody([{ role: 'user', content: 'go' }], false));
      expect(local.logOf(trial)[0]).toMatchObject({ attempts: 2, retries: [{ attempt: 1, reason: 'upstream answered 503', delay_ms: expect.any(Number) }], response: { content: [{ text: 'hi' }] } });
    } finally {
      await local.close();
      await flaky.stop();
    }
  });

  test('recording off: the lines are the counts only, as before', async () => {
    const local = await startModelGateway({ anthropicBaseUrl: env.upstream.anthropicBaseUrl, openaiBaseUrl: env.upstream.openaiBaseUrl, recordConversation: false });
    try {
      const trial = local.newTrial();
      await postJson(`${local.url}/anthropic/v1/messages`, claudeCodeHeaders(trial.token), claudeCodeBody([{ role: 'user', content: 'go' }]));
      await postJson(`${local.url}/openai/v1/chat/completions`, bearer(trial.token), miniSweBody([{ role: 'user', content: 'go' }]));
      const keys = ['ts', 'api', 'model', 'stream', 'status', 'turn', 'input_tokens', 'output_tokens', 'cached_tokens', 'cache_write_tokens', 'cost_usd', 'latency_ms', 'attempts'];
      expect(local.logOf(trial).map((l) => Object.keys(l))).toEqual([keys, keys]);
      expect(readFileSync(trial.modelLogPath!, 'utf8')).not.toContain('go');
    } finally {
      await local.close();
    }
  });

  test("the job config's models.record_conversation: a boolean that reaches the handler, else a one-line error", () => {
    const off = parseJobConfig('job.yaml', 'tasks:\n  path: legs\nagents:\n  - name: oracle\nmodels:\n  record_conversation: false\n');
    expect(gatewayOptionsOf(off.models, (p) => p).recordConversation).toBe(false);
    const unset = parseJobConfig('job.yaml', 'tasks:\n  path: legs\nagents:\n  - name: oracle\n');
    expect(gatewayOptionsOf(unset.models, (p) => p).recordConversation).toBeUndefined();
    const problems = configProblems('tasks:\n  path: legs\nagents:\n  - name: oracle\nmodels:\n  record_conversation: maybe\n');
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/job\.yaml.*models\.record_conversation/);
  });
});
