import { randomUUID } from 'node:crypto';
import type { LocalReply } from './engine.js';
import type { LocalApi } from './requests.js';

/**
 * The local model's answers in each API's shape: a whole JSON body, or a server-sent event stream written
 * as the text is generated (tool calls, known only at the end, close it). Usage sits where each API puts
 * it, so the gateway counts the local model's tokens as it counts any provider's.
 */

type Json = Record<string, unknown>;
type Send = (event: string | undefined, data: unknown) => void;

export interface ReplyStream {
  /** The prompt was read and generation starts (the stream's opening events). */
  start(inputTokens: number): void;
  text(delta: string): void;
  end(reply: LocalReply): void;
}

export interface ApiShape {
  json(reply: LocalReply, model: string): Json;
  stream(send: Send, model: string, includeUsage: boolean): ReplyStream;
  /** The API's own error for a prompt longer than the context. */
  contextError(promptTokens: number, contextSize: number): Json;
}

const newId = (prefix: string): string => prefix + randomUUID().replace(/-/g, '').slice(0, 24);
const argumentsText = (args: unknown): string => (typeof args === 'string' ? args : JSON.stringify(args ?? {}));

const anthropicStop = (reply: LocalReply): string => (reply.stop === 'tool' ? 'tool_use' : reply.stop === 'length' ? 'max_tokens' : 'end_turn');
const anthropicUsage = (input: number, output: number): Json => ({ input_tokens: input, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: output });

const anthropic: ApiShape = {
  json: (reply, model) => ({
    id: newId('msg_'),
    type: 'message',
    role: 'assistant',
    model,
    content: [...(reply.text ? [{ type: 'text', text: reply.text }] : []), ...reply.calls.map((c) => ({ type: 'tool_use', id: `toolu_${c.id}`, name: c.name, input: c.arguments }))],
    stop_reason: anthropicStop(reply),
    stop_sequence: null,
    usage: anthropicUsage(reply.inputTokens, reply.outputTokens),
  }),
  stream(send, model) {
    let index = -1;
    let textOpen = false;
    let input = 0;
    return {
      start(inputTokens) {
        input = inputTokens;
        send('message_start', { type: 'message_start', message: { id: newId('msg_'), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: anthropicUsage(inputTokens, 1) } });
      },
      text(delta) {
        if (!textOpen) send('content_block_start', { type: 'content_block_start', index: ++index, content_block: { type: 'text', text: '' } });
        textOpen = true;
        send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: delta } });
      },
      end(reply) {
        if (textOpen) send('content_block_stop', { type: 'content_block_stop', index });
        for (const call of reply.calls) {
          send('content_block_start', { type: 'content_block_start', index: ++index, content_block: { type: 'tool_use', id: `toolu_${call.id}`, name: call.name, input: {} } });
          send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: argumentsText(call.arguments) } });
          send('content_block_stop', { type: 'content_block_stop', index });
        }
        send('message_delta', { type: 'message_delta', delta: { stop_reason: anthropicStop(reply), stop_sequence: null }, usage: anthropicUsage(input, reply.outputTokens) });
        send('message_stop', { type: 'message_stop' });
      },
    };
  },
  contextError: (tokens, size) => ({ type: 'error', error: { type: 'invalid_request_error', message: `prompt is too long: ${tokens} tokens > ${size - 1} maximum` } }),
};

const chatFinish = (reply: LocalReply): string => (reply.stop === 'tool' ? 'tool_calls' : reply.stop === 'length' ? 'length' : 'stop');
const chatUsage = (reply: LocalReply): Json => ({ prompt_tokens: reply.inputTokens, completion_tokens: reply.outputTokens, total_tokens: reply.inputTokens + reply.outputTokens });
const chatCalls = (reply: LocalReply): Json[] => reply.calls.map((c, index) => ({ index, id: `call_${c.id}`, type: 'function', function: { name: c.name, arguments: argumentsText(c.arguments) } }));

const chat: ApiShape = {
  json: (reply, model) => ({
    id: newId('chatcmpl-'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.text || (reply.calls.length ? null : ''), ...(reply.calls.length ? { tool_calls: chatCalls(reply).map(({ index: _, ...c }) => c) } : {}) },
        finish_reason: chatFinish(reply),
      },
    ],
    usage: chatUsage(reply),
  }),
  stream(send, model, includeUsage) {
    const base = { id: newId('chatcmpl-'), object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
    const chunk = (delta: Json, finish: string | null = null) => send(undefined, { ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
    return {
      start: () => chunk({ role: 'assistant', content: '' }),
      text: (delta) => chunk({ content: delta }),
      end(reply) {
        if (reply.calls.length) chunk({ tool_calls: chatCalls(reply) });
        chunk({}, chatFinish(reply));
        if (includeUsage) send(undefined, { ...base, choices: [], usage: chatUsage(reply) });
        send(undefined, '[DONE]');
      },
    };
  },
  contextError: (tokens, size) => ({
    error: {
      message: `This model's maximum context length is ${size} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
      type: 'invalid_request_error',
      param: 'messages',
      code: 'context_length_exceeded',
    },
  }),
};

const responsesUsage = (reply: LocalReply): Json => ({
  input_tokens: reply.inputTokens,
  input_tokens_details: { cached_tokens: 0 },
  output_tokens: reply.outputTokens,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: reply.inputTokens + reply.outputTokens,
});

function responsesOutput(reply: LocalReply, messageId: string): Json[] {
  const message = reply.text ? [{ type: 'message', id: messageId, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] }] : [];
  return [...message, ...reply.calls.map((c) => ({ type: 'function_call', id: `fc_${c.id}`, call_id: `call_${c.id}`, name: c.name, arguments: argumentsText(c.arguments), status: 'completed' }))];
}

function responseObject(id: string, model: string, reply: LocalReply | undefined, messageId: string): Json {
  const status = !reply ? 'in_progress' : reply.stop === 'length' ? 'incomplete' : 'completed';
  return {
    id,
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    status,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    model,
    output: reply ? responsesOutput(reply, messageId) : [],
    parallel_tool_calls: false,
    store: false,
    usage: reply ? responsesUsage(reply) : null,
  };
}

const responses: ApiShape = {
  json: (reply, model) => responseObject(newId('resp_'), model, reply, newId('msg_')),
  stream(send, model) {
    const id = newId('resp_');
    const messageId = newId('msg_');
    let sequence = 0;
    let text = '';
    const add = (data: Json) => send(data.type as string, { ...data, sequence_number: sequence++ });
    const part = { type: 'output_text', text: '', annotations: [] };
    return {
      start() {
        add({ type: 'response.created', response: responseObject(id, model, undefined, messageId) });
        add({ type: 'response.in_progress', response: responseObject(id, model, undefined, messageId) });
      },
      text(delta) {
        if (!text) {
          add({ type: 'response.output_item.added', output_index: 0, item: { type: 'message', id: messageId, role: 'assistant', status: 'in_progress', content: [] } });
          add({ type: 'response.content_part.added', item_id: messageId, output_index: 0, content_index: 0, part });
        }
        text += delta;
        add({ type: 'response.output_text.delta', item_id: messageId, output_index: 0, content_index: 0, delta, logprobs: [] });
      },
      end(reply) {
        const output = responsesOutput(reply, messageId);
        let outputIndex = 0;
        if (text) {
          add({ type: 'response.output_text.done', item_id: messageId, output_index: 0, content_index: 0, text, logprobs: [] });
          add({ type: 'response.content_part.done', item_id: messageId, output_index: 0, content_index: 0, part: { ...part, text } });
          add({ type: 'response.output_item.done', output_index: outputIndex++, item: output[0] });
        }
        for (const item of output.filter((o) => o.type === 'function_call')) {
          const output_index = outputIndex++;
          add({ type: 'response.output_item.added', output_index, item: { ...item, arguments: '', status: 'in_progress' } });
          add({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index, delta: item.arguments });
          add({ type: 'response.function_call_arguments.done', item_id: item.id, output_index, arguments: item.arguments });
          add({ type: 'response.output_item.done', output_index, item });
        }
        const done = responseObject(id, model, reply, messageId);
        add({ type: done.status === 'incomplete' ? 'response.incomplete' : 'response.completed', response: done });
      },
    };
  },
  contextError: () => ({
    error: { message: 'Your input exceeds the context window of this model. Please adjust your input and try again.', type: 'invalid_request_error', param: 'input', code: 'context_length_exceeded' },
  }),
};

export const API_SHAPES: Record<LocalApi, ApiShape> = { anthropic, chat, responses };
