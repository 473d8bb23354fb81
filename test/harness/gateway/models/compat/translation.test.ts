import { chatErrorToMessages, ChatStreamToMessages, chatToMessage } from '../../../../../harness/gateway/models/compat/chat-to-messages.js';
import { ChatStreamToResponses } from '../../../../../harness/gateway/models/compat/chat-to-responses.js';
import { messagesToChat } from '../../../../../harness/gateway/models/compat/messages-to-chat.js';
import { responsesToChat } from '../../../../../harness/gateway/models/compat/responses-to-chat.js';

describe('Anthropic Messages <-> Chat Completions translation', () => {
  test('a Messages request: system first, tool_use as tool_calls, tool_result as tool messages ahead of the user text, functions and tool_choice', () => {
    const chat = messagesToChat({
      model: 'claude-x', max_tokens: 100, stream: true, stop_sequences: ['END'], temperature: 0.5,
      system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Use tools.' }],
      tools: [{ name: 'bash', description: 'run', input_schema: { type: 'object' } }, { type: 'web_search_20250305', name: 'web_search' }],
      tool_choice: { type: 'tool', name: 'bash' },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'hi' }, { type: 'image', source: {} }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'hm' }, { type: 'text', text: 'ok' }, { type: 'tool_use', id: 't1', name: 'bash', input: { command: 'ls' } }] },
        { role: 'user', content: [{ type: 'text', text: 'then?' }, { type: 'tool_result', tool_use_id: 't1', is_error: true, content: [{ type: 'text', text: 'no such dir' }] }] },
      ],
    }, 'upstream-model');
    expect(chat).toEqual({
      model: 'upstream-model', max_tokens: 100, temperature: 0.5, stop: ['END'], stream: true, stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'Be brief.\nUse tools.' },
        { role: 'user', content: 'hi\n[image]' },
        { role: 'assistant', content: 'ok', tool_calls: [{ id: 't1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] },
        { role: 'tool', tool_call_id: 't1', content: '[error] no such dir' },
        { role: 'user', content: 'then?' },
      ],
      tools: [{ type: 'function', function: { name: 'bash', description: 'run', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'bash' } },
    });
    expect(messagesToChat({ model: 'm', messages: [], tools: [{ name: 'a', input_schema: {} }], tool_choice: { type: 'any' } }).tool_choice).toBe('required');
  });

  test('a chat.completion as a message; a stream of chunks as Messages events; an error body as an Anthropic error', () => {
    const message = chatToMessage({ model: 'm', choices: [{ message: { content: 'hi', tool_calls: [{ id: 'c1', function: { name: 'bash', arguments: '{"command":"ls"}' } }] }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 10, completion_tokens: 3, prompt_tokens_details: { cached_tokens: 4 } } }, 'x');
    expect(message).toMatchObject({ model: 'm', stop_reason: 'tool_use', content: [{ type: 'text', text: 'hi' }, { type: 'tool_use', id: 'c1', name: 'bash', input: { command: 'ls' } }], usage: { input_tokens: 6, cache_read_input_tokens: 4, output_tokens: 3 } });

    const events: [string, Record<string, any>][] = [];
    const stream = new ChatStreamToMessages((event, data) => events.push([event, data]), 'm');
    stream.chunk({ model: 'm', choices: [{ delta: { role: 'assistant', content: 'Let me' } }] });
    stream.chunk({ choices: [{ delta: { content: ' look.' } }] });
    stream.chunk({ choices: [{ delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'bash', arguments: '{"comm' } }] } }] });
    stream.chunk({ choices: [{ delta: { tool_calls: [{ index: 0, id: 'c1', function: { arguments: 'and":"ls"}' } }] }, finish_reason: 'tool_calls' }] });
    stream.chunk({ choices: [], usage: { prompt_tokens: 7, completion_tokens: 5 } });
    stream.end();
    expect(events.map(([e, d]) => `${e}:${d.index ?? ''}:${d.delta?.type ?? d.content_block?.type ?? ''}`)).toEqual([
      'message_start::', 'content_block_start:0:text', 'content_block_delta:0:text_delta', 'content_block_delta:0:text_delta', 'content_block_stop:0:',
      'content_block_start:1:tool_use', 'content_block_delta:1:input_json_delta', 'content_block_delta:1:input_json_delta', 'content_block_stop:1:',
      'message_delta::', 'message_stop::',
    ]);
    expect(events[5][1].content_block).toMatchObject({ id: 'c1', name: 'bash' });
    expect(events[9][1]).toMatchObject({ delta: { stop_reason: 'tool_use' }, usage: { input_tokens: 7, output_tokens: 5 } });

    expect(chatErrorToMessages(400, '{"error":{"message":"too long","code":"context_length_exceeded"}}')).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'too long' } });
    expect(chatErrorToMessages(503, 'Service Unavailable')).toEqual({ type: 'error', error: { type: 'api_error', message: 'Service Unavailable' } });
  });

  test('a Responses request: instructions and developer messages as system, function calls in a row as one assistant turn, their outputs as tool messages; chunks as Responses events', () => {
    expect(responsesToChat({
      model: 'gpt-x', instructions: 'Be brief.', max_output_tokens: 50, stream: true, tool_choice: { type: 'function', name: 'bash' },
      tools: [{ type: 'function', name: 'bash', parameters: { type: 'object' } }, { type: 'web_search' }],
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'Rules.' }] },
        { role: 'user', content: 'hi' },
        { type: 'reasoning', summary: [] },
        { type: 'function_call', call_id: 'a', name: 'bash', arguments: '{"command":"ls"}' },
        { type: 'function_call', call_id: 'b', name: 'bash', arguments: '{"command":"pwd"}' },
        { type: 'function_call_output', call_id: 'a', output: 'x.txt' },
        { type: 'function_call_output', call_id: 'b', output: '/app' },
      ],
    })).toEqual({
      model: 'gpt-x', max_tokens: 50, stream: true, stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'Be brief.' }, { role: 'system', content: 'Rules.' }, { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }, { id: 'b', type: 'function', function: { name: 'bash', arguments: '{"command":"pwd"}' } }] },
        { role: 'tool', tool_call_id: 'a', content: 'x.txt' }, { role: 'tool', tool_call_id: 'b', content: '/app' },
      ],
      tools: [{ type: 'function', function: { name: 'bash', parameters: { type: 'object' } } }],
      tool_choice: { type: 'function', function: { name: 'bash' } },
    });

    const events: Record<string, any>[] = [];
    const stream = new ChatStreamToResponses((_event, data) => events.push(data), 'm');
    stream.chunk({ model: 'm', choices: [{ delta: { content: 'Let me' } }] });
    stream.chunk({ choices: [{ delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'bash', arguments: '{"command":' } }] } }] });
    stream.chunk({ choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: '"ls"}' } }] }, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 7, completion_tokens: 5 } });
    stream.end();
    expect(events.map((e) => e.type)).toEqual([
      'response.created', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta',
      'response.output_text.done', 'response.content_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_e, i) => i));
    expect(events.at(-1)!.response).toMatchObject({
      status: 'completed', usage: { input_tokens: 7, output_tokens: 5, total_tokens: 12 },
      output: [{ type: 'message', content: [{ type: 'output_text', text: 'Let me' }] }, { type: 'function_call', call_id: 'c1', name: 'bash', arguments: '{"command":"ls"}', status: 'completed' }],
    });
  });
});
