import { openAICompatibleHandler } from '../../../../../harness/gateway/models/compat/handler.js';
import { startLocalModelServer, type LocalModelServer } from '../../../../../harness/gateway/local/server.js';
import { smolLM2 } from '../../../../helpers/local-model.js';
import { bearer, eventData, postJson, startModelGateway, type ModelGateway } from '../fixtures.js';

/**
 * An OpenAI-compatible server as the gateway's upstream (`models: {provider: openai-compatible}`), the real
 * one here being the local provider's own HTTP face (SmolLM2-135M) used through its Chat Completions route
 * only: Anthropic Messages (Claude Code's API) and Responses (Codex CLI's) are translated to Chat
 * Completions and back, streamed and not, tool calls both ways; Chat Completions requests pass as they are.
 */

const CONTEXT = 1024;
const UPSTREAM_MODEL = 'SmolLM2-135M-Instruct.Q4_1';
let local: LocalModelServer;
let gw: ModelGateway;
let handler: ReturnType<typeof openAICompatibleHandler>;

beforeAll(async () => {
  local = await startLocalModelServer({ path: await smolLM2(), parallel: 2, contextSize: CONTEXT });
  handler = openAICompatibleHandler({ baseUrl: `${local.url}/v1`, apiKey: local.key, model: UPSTREAM_MODEL }, {});
  gw = await startModelGateway(handler);
}, 120_000);
afterAll(async () => {
  await gw?.close();
  await handler?.close();
  await local?.close();
});

const anthropicHeaders = (token: string) => ({ 'content-type': 'application/json', 'x-api-key': token, 'anthropic-version': '2023-06-01' });
const BASH = { type: 'object', properties: { command: { type: 'string', description: 'the shell command' } }, required: ['command'] };
const TOOLS = [{ name: 'bash', description: 'Runs a shell command', input_schema: BASH }];

describe('an OpenAI-compatible upstream behind the gateway (the local model\'s Chat Completions face)', () => {
  test('Anthropic Messages, whole and streamed: translated to Chat Completions and back, real text, the usage the upstream served', async () => {
    const trial = gw.newTrial();
    const before = { ...local.served };
    const body = { model: 'claude-sonnet-4-5', max_tokens: 12, system: 'Answer in one word.', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the capital of France?' }] }] };
    const whole = await postJson(`${gw.url}/anthropic/v1/messages`, anthropicHeaders(trial.token), body);
    expect(whole.status).toBe(200);
    const message = whole.json();
    expect(message).toMatchObject({ type: 'message', role: 'assistant', model: UPSTREAM_MODEL, content: [{ type: 'text' }] });
    expect(message.content[0].text).toMatch(/paris/i);
    expect(['end_turn', 'max_tokens']).toContain(message.stop_reason);

    const streamed = await postJson(`${gw.url}/anthropic/v1/messages`, anthropicHeaders(trial.token), { ...body, stream: true });
    expect(streamed.status).toBe(200);
    const events = eventData(streamed.events());
    expect(events[0].type).toBe('message_start');
    expect(events.at(-1)!.type).toBe('message_stop');
    // Temperature 0: the same question gets the same answer, streamed or not.
    expect(events.filter((e) => e.delta?.type === 'text_delta').map((e) => e.delta.text).join('')).toBe(message.content[0].text);
    const delta = events.find((e) => e.type === 'message_delta')!;
    const served = { input: local.served.inputTokens - before.inputTokens, output: local.served.outputTokens - before.outputTokens };
    expect(local.served.requests - before.requests).toBe(2);
    expect({ input: message.usage.input_tokens + delta.usage.input_tokens, output: message.usage.output_tokens + delta.usage.output_tokens }).toEqual(served);
    expect(trial.usage).toMatchObject({ turns: 2, answered: 2, inputTokens: served.input, outputTokens: served.output, upstreamFailures: 0 });
    expect(gw.logOf(trial).map((l) => [l.api, l.stream, l.status, l.model])).toEqual([
      ['anthropic-messages', false, 200, UPSTREAM_MODEL], ['anthropic-messages', true, 200, UPSTREAM_MODEL],
    ]);
  }, 120_000);

  test('a tool call: tools and tool_choice go up as functions, the tool_calls come back as tool_use (streamed), and the tool_result goes up as a tool message', async () => {
    const trial = gw.newTrial();
    const ask = { model: 'claude-sonnet-4-5', max_tokens: 48, stream: true, tools: TOOLS, tool_choice: { type: 'any' }, messages: [{ role: 'user', content: 'List the files in /app with the bash tool.' }] };
    const first = await postJson(`${gw.url}/anthropic/v1/messages`, anthropicHeaders(trial.token), ask);
    expect(first.status).toBe(200);
    const events = eventData(first.events());
    const start = events.find((e) => e.type === 'content_block_start' && e.content_block.type === 'tool_use')!;
    expect(start.content_block.name).toBe('bash');
    const input = JSON.parse(events.filter((e) => e.delta?.type === 'input_json_delta').map((e) => e.delta.partial_json).join(''));
    expect(typeof input.command).toBe('string');
    expect(events.find((e) => e.type === 'message_delta')!.delta.stop_reason).toBe('tool_use');

    const reply = await postJson(`${gw.url}/anthropic/v1/messages`, anthropicHeaders(trial.token), {
      model: 'claude-sonnet-4-5', max_tokens: 16, tools: TOOLS,
      messages: [
        ask.messages[0],
        { role: 'assistant', content: [{ type: 'tool_use', id: start.content_block.id, name: 'bash', input }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: start.content_block.id, content: 'answer.txt\ninstruction.md' }, { type: 'text', text: 'Which files are there?' }] },
      ],
    });
    expect(reply.status).toBe(200);
    const answer = reply.json();
    // (what a 135M model says after a tool result may be nothing at all: the translation is what is tested)
    expect(answer).toMatchObject({ type: 'message', role: 'assistant', model: UPSTREAM_MODEL });
    expect(answer.usage.output_tokens).toBeGreaterThan(0);
    // The upstream saw the whole conversation: its prompt holds the call and its result.
    expect(answer.usage.input_tokens).toBeGreaterThan(events.find((e) => e.type === 'message_delta')!.usage.input_tokens);
    expect(trial.usage).toMatchObject({ turns: 2, answered: 2 });
  }, 120_000);

  test('the upstream\'s context-length error reaches the agent as an Anthropic error with its message, and trial.json\'s model_errors keeps it', async () => {
    const trial = gw.newTrial();
    const long = 'word '.repeat(CONTEXT * 2);
    const refused = await postJson(`${gw.url}/anthropic/v1/messages`, anthropicHeaders(trial.token), { model: 'claude-sonnet-4-5', max_tokens: 8, stream: true, messages: [{ role: 'user', content: long }] });
    expect(refused.status).toBe(400);
    expect(refused.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: expect.stringMatching(new RegExp(`maximum context length is ${CONTEXT} tokens`)) } });
    expect(trial.usage.modelErrors).toMatchObject({ calls: 1, last_status: 400, last_message: expect.stringMatching(/maximum context length/) });
    expect(gw.logOf(trial)[0]).toMatchObject({ api: 'anthropic-messages', status: 400 });
  }, 60_000);

  test('Responses (Codex CLI\'s API), whole and streamed with a tool call: translated to Chat Completions and back', async () => {
    const trial = gw.newTrial();
    const whole = await postJson(`${gw.url}/openai/v1/responses`, bearer(trial.token), { model: 'gpt-5.4', max_output_tokens: 12, instructions: 'Answer in one word.', input: [{ role: 'user', content: [{ type: 'input_text', text: 'What is the capital of France?' }] }] });
    expect(whole.status).toBe(200);
    const response = whole.json();
    expect(response).toMatchObject({ object: 'response', model: UPSTREAM_MODEL, output: [{ type: 'message', role: 'assistant', content: [{ type: 'output_text' }] }] });
    expect(response.output[0].content[0].text).toMatch(/paris/i);

    const streamed = await postJson(`${gw.url}/openai/v1/responses`, bearer(trial.token), {
      model: 'gpt-5.4', max_output_tokens: 48, stream: true, input: 'List the files in /app with the bash tool.',
      tools: [{ type: 'function', name: 'bash', description: 'Runs a shell command', parameters: BASH }, { type: 'web_search' }], tool_choice: 'required',
    });
    expect(streamed.status).toBe(200);
    const events = eventData(streamed.events());
    expect(events[0].type).toBe('response.created');
    const done = events.find((e) => e.type === 'response.completed' || e.type === 'response.incomplete')!.response;
    const call = done.output.find((o: any) => o.type === 'function_call');
    expect(call.name).toBe('bash');
    expect(typeof JSON.parse(call.arguments).command).toBe('string');
    expect(events.filter((e) => e.type === 'response.function_call_arguments.delta').map((e) => e.delta).join('')).toBe(call.arguments);
    expect(trial.usage).toMatchObject({ turns: 2, answered: 2, inputTokens: response.usage.input_tokens + done.usage.input_tokens, outputTokens: response.usage.output_tokens + done.usage.output_tokens });
    expect(gw.logOf(trial).map((l) => [l.api, l.stream, l.status])).toEqual([['openai-responses', false, 200], ['openai-responses', true, 200]]);
  }, 120_000);

  test('Chat Completions go to the upstream as they are', async () => {
    const trial = gw.newTrial();
    const chat = await postJson(`${gw.url}/openai/v1/chat/completions`, bearer(trial.token), { model: UPSTREAM_MODEL, max_tokens: 8, messages: [{ role: 'user', content: 'What is the capital of France? Answer in one word.' }] });
    expect(chat.status).toBe(200);
    expect(chat.json().choices[0].message.content).toMatch(/paris/i);
    expect(gw.logOf(trial).map((l) => [l.api, l.status])).toEqual([['openai-chat', 200]]);
  }, 60_000);
});
