import { localModelHandler } from '../../../../harness/gateway/local/handler.js';
import { BUILT_IN_PRICES } from '../../../../harness/gateway/models/apis/registry.js';
import type { LocalModelServer } from '../../../../harness/gateway/local/server.js';
import { SHORT, smolLM2 } from '../../../helpers/local-model.js';
import { bearer, eventData, postJson, startModelGateway, type ModelGateway } from '../models/fixtures.js';

/**
 * The local provider with the real SmolLM2-135M: every API answers, streaming or not, with generated text
 * and tool calls, through the gateway (budget, usage, model log) as any upstream would.
 */

const CONTEXT = 512;
let gw: ModelGateway;
let handler: ReturnType<typeof localModelHandler>;
let local: LocalModelServer;

beforeAll(async () => {
  handler = localModelHandler({ path: await smolLM2(), parallel: 2, contextSize: CONTEXT, prices: BUILT_IN_PRICES });
  local = await handler.server();
  gw = await startModelGateway(handler);
}, 120_000);
afterAll(async () => {
  await gw?.close();
  await handler?.close();
});

const anthropicHeaders = (token: string) => ({ 'content-type': 'application/json', 'x-api-key': token, 'anthropic-version': '2023-06-01' });
const QUESTION = 'What is the capital of France? Answer in one word.';
const BASH = { type: 'object', properties: { command: { type: 'string', description: 'the shell command' } }, required: ['command'] };
const TASK = 'List the files in /app with the bash tool.';

/** Joins streamed text per API. */
function streamedText(api: 'anthropic' | 'chat' | 'responses', events: Record<string, any>[]): string {
  if (api === 'anthropic') return events.filter((e) => e.delta?.type === 'text_delta').map((e) => e.delta.text).join('');
  if (api === 'chat') return events.map((e) => e.choices?.[0]?.delta?.content ?? '').join('');
  return events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('');
}

/** The usage a response reported, as the gateway counts it. */
function reported(api: 'anthropic' | 'chat' | 'responses', body: Record<string, any>): { input: number; output: number } {
  if (api === 'anthropic') return { input: body.usage.input_tokens, output: body.usage.output_tokens };
  if (api === 'chat') return { input: body.usage.prompt_tokens, output: body.usage.completion_tokens };
  return { input: body.usage.input_tokens, output: body.usage.output_tokens };
}

describe('the local model behind the gateway (SmolLM2-135M)', () => {
  test('each API, streaming and not, answers with generated text; token counts equal what was served', async () => {
    const trial = gw.newTrial();
    const before = { ...local.served };
    const totals = { input: 0, output: 0 };
    const answers: string[] = [];
    for (const stream of [false, true]) {
      const anthropic = await postJson(`${gw.url}/anthropic/v1/messages`, anthropicHeaders(trial.token), { model: 'local:smollm2', max_tokens: SHORT, stream, messages: [{ role: 'user', content: QUESTION }] });
      const chat = await postJson(`${gw.url}/openai/v1/chat/completions`, bearer(trial.token), { model: 'local:smollm2', max_tokens: SHORT, stream, messages: [{ role: 'user', content: QUESTION }] });
      const responses = await postJson(`${gw.url}/openai/v1/responses`, bearer(trial.token), { model: 'local:smollm2', max_output_tokens: SHORT, stream, input: QUESTION });
      for (const [api, res] of [['anthropic', anthropic], ['chat', chat], ['responses', responses]] as const) {
        expect(res.status).toBe(200);
        if (!stream) {
          const body = res.json();
          const text = api === 'anthropic' ? body.content[0].text : api === 'chat' ? body.choices[0].message.content : body.output[0].content[0].text;
          answers.push(text);
          const usage = reported(api, body);
          totals.input += usage.input;
          totals.output += usage.output;
        } else {
          const events = eventData(res.events());
          answers.push(streamedText(api, events));
          const last = api === 'anthropic' ? events.find((e) => e.type === 'message_delta') : api === 'chat' ? events.at(-1) : events.at(-1)!.response;
          const usage = api === 'anthropic' ? { input: last!.usage.input_tokens, output: last!.usage.output_tokens } : reported(api, last!);
          totals.input += usage.input;
          totals.output += usage.output;
        }
      }
    }
    // Real text (temperature 0: the same question gets the same answer on every API's face).
    for (const answer of answers) expect(answer).toMatch(/paris/i);
    const served = { input: local.served.inputTokens - before.inputTokens, output: local.served.outputTokens - before.outputTokens };
    expect(local.served.requests - before.requests).toBe(6);
    expect(served).toEqual(totals);
    expect(trial.usage).toMatchObject({ turns: 6, answered: 6, inputTokens: served.input, outputTokens: served.output, upstreamFailures: 0, costUsd: 0 });
    const log = gw.logOf(trial);
    expect(log.map((l) => [l.api, l.stream, l.status])).toEqual([
      ['anthropic-messages', false, 200], ['openai-chat', false, 200], ['openai-responses', false, 200],
      ['anthropic-messages', true, 200], ['openai-chat', true, 200], ['openai-responses', true, 200],
    ]);
    expect(log.reduce((n, l) => n + (l.output_tokens as number), 0)).toBe(served.output);
    expect(log.every((l) => l.model === 'SmolLM2-135M-Instruct.Q4_1' && l.cost_usd === 0)).toBe(true);
  }, 240_000);

  test('a tool call, parsed by grammar, on each API (streaming for Anthropic and Responses)', async () => {
    const trial = gw.newTrial();
    const anthropic = await postJson(`${gw.url}/anthropic/v1/messages`, anthropicHeaders(trial.token), {
      model: 'local:smollm2', max_tokens: 48, stream: true, messages: [{ role: 'user', content: TASK }],
      tools: [{ name: 'bash', description: 'Runs a shell command', input_schema: BASH }], tool_choice: { type: 'any' },
    });
    const chat = await postJson(`${gw.url}/openai/v1/chat/completions`, bearer(trial.token), {
      model: 'local:smollm2', max_tokens: 48, messages: [{ role: 'user', content: TASK }],
      tools: [{ type: 'function', function: { name: 'bash', description: 'Runs a shell command', parameters: BASH } }], tool_choice: 'required',
    });
    const responses = await postJson(`${gw.url}/openai/v1/responses`, bearer(trial.token), {
      model: 'local:smollm2', max_output_tokens: 48, stream: true, input: TASK,
      tools: [{ type: 'function', name: 'bash', description: 'Runs a shell command', parameters: BASH }], tool_choice: { type: 'function', name: 'bash' },
    });
    const anthropicEvents = eventData(anthropic.events());
    const toolBlock = anthropicEvents.find((e) => e.type === 'content_block_start' && e.content_block.type === 'tool_use')!;
    const anthropicInput = JSON.parse(anthropicEvents.filter((e) => e.delta?.type === 'input_json_delta').map((e) => e.delta.partial_json).join(''));
    expect(toolBlock.content_block.name).toBe('bash');
    expect(anthropicEvents.find((e) => e.type === 'message_delta')!.delta.stop_reason).toBe('tool_use');

    const chatCall = chat.json().choices[0];
    expect(chatCall.finish_reason).toBe('tool_calls');
    expect(chatCall.message.tool_calls[0].function.name).toBe('bash');
    const chatInput = JSON.parse(chatCall.message.tool_calls[0].function.arguments);

    const done = eventData(responses.events()).find((e) => e.type === 'response.completed')!.response;
    const call = done.output.find((o: any) => o.type === 'function_call');
    expect(call.name).toBe('bash');
    const responsesInput = JSON.parse(call.arguments);
    for (const input of [anthropicInput, chatInput, responsesInput]) expect(Object.keys(input)).toEqual(['command']);
    for (const input of [anthropicInput, chatInput, responsesInput]) expect(typeof input.command).toBe('string');
    expect(trial.usage).toMatchObject({ turns: 3, answered: 3, upstreamFailures: 0 });
  }, 240_000);

  test('a conversation with a tool result goes back to the model (the call and its result in the prompt)', async () => {
    const trial = gw.newTrial();
    const res = await postJson(`${gw.url}/openai/v1/chat/completions`, bearer(trial.token), {
      model: 'local:smollm2', max_tokens: SHORT,
      messages: [
        { role: 'user', content: TASK },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls /app"}' } }] },
        { role: 'tool', tool_call_id: 'call_1', content: 'instruction.md' },
      ],
      tools: [{ type: 'function', function: { name: 'bash', description: 'Runs a shell command', parameters: BASH } }], tool_choice: 'none',
    });
    expect(res.status).toBe(200);
    const body = res.json();
    const bare = await postJson(`${gw.url}/openai/v1/chat/completions`, bearer(trial.token), { model: 'local:smollm2', max_tokens: 1, messages: [{ role: 'user', content: TASK }] });
    // The call and its result were read: the prompt is longer than the question alone.
    expect(body.usage.prompt_tokens).toBeGreaterThan(bare.json().usage.prompt_tokens + 5);
    expect(body.choices[0].message.content.length).toBeGreaterThan(0);
  }, 120_000);

  test('a prompt longer than the context gets each API\'s own context-length error, counted as a turn and logged', async () => {
    const trial = gw.newTrial();
    const long = 'word '.repeat(CONTEXT * 2);
    const chat = await postJson(`${gw.url}/openai/v1/chat/completions`, bearer(trial.token), { model: 'local:smollm2', messages: [{ role: 'user', content: long }] });
    expect(chat.status).toBe(400);
    expect(chat.json().error).toMatchObject({ code: 'context_length_exceeded', type: 'invalid_request_error' });
    expect(chat.json().error.message).toMatch(new RegExp(`maximum context length is ${CONTEXT} tokens`));
    const anthropic = await postJson(`${gw.url}/anthropic/v1/messages`, anthropicHeaders(trial.token), { model: 'local:smollm2', max_tokens: 10, stream: true, messages: [{ role: 'user', content: long }] });
    expect(anthropic.status).toBe(400);
    expect(anthropic.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect(anthropic.json().error.message).toMatch(/^prompt is too long: \d+ tokens > \d+ maximum$/);
    const responses = await postJson(`${gw.url}/openai/v1/responses`, bearer(trial.token), { model: 'local:smollm2', input: long });
    expect(responses.json().error.code).toBe('context_length_exceeded');
    expect(trial.usage).toMatchObject({ turns: 3, answered: 0, inputTokens: 0, outputTokens: 0 });
    expect(gw.logOf(trial).map((l) => [l.status, l.error])).toEqual([
      [400, 'upstream answered 400'], [400, 'upstream answered 400'], [400, 'upstream answered 400'],
    ]);
    // count_tokens counts what was refused.
    const counted = await postJson(`${gw.url}/anthropic/v1/messages/count_tokens`, anthropicHeaders(trial.token), { model: 'local:smollm2', messages: [{ role: 'user', content: long }] });
    expect(counted.json().input_tokens).toBeGreaterThan(CONTEXT);
  }, 120_000);

  test('trials at once share the model through its queue; the budget stops a trial at its turn limit', async () => {
    const trials = [gw.newTrial({ maxTurns: 1 }), gw.newTrial({ maxTurns: 1 }), gw.newTrial({ maxTurns: 1 })];
    const ask = (token: string) => postJson(`${gw.url}/openai/v1/chat/completions`, bearer(token), { model: 'local:smollm2', max_tokens: 4, messages: [{ role: 'user', content: QUESTION }] });
    const answers = await Promise.all(trials.map((t) => ask(t.token)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    for (const [i, trial] of trials.entries()) expect(trial.usage.outputTokens).toBe(answers[i].json().usage.completion_tokens);
    expect(local.model.parallel).toBe(2);
    const refused = await ask(trials[0].token);
    expect(refused.status).toBe(400);
    expect(refused.json().error.code).toBe('aar_budget_exhausted');
    expect(trials[0].usage).toMatchObject({ turns: 1, budgetExceeded: true });
  }, 120_000);
});
