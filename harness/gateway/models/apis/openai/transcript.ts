import { contentText, isObject, list, pushCall, readMessages, replyReader, str, type TranscriptReader } from '../../../../../trial/trajectory/exchanges.js';

/** OpenAI Chat Completions: `messages` (system, developer, user, tool); the reply is the first choice's message. */
export const chatTranscript: TranscriptReader = {
  request: (body) => ({ messages: readMessages(body.messages), system: null }),
  reply: replyReader((response, { texts, reasoning, calls }) => {
    const choice = list(response.choices)[0];
    const message = isObject(choice) && isObject(choice.message) ? choice.message : null;
    if (!message) return;
    texts.push(contentText(message.content ?? ''));
    reasoning.push(str(message.reasoning_content) || str(message.reasoning));
    for (const call of list(message.tool_calls)) {
      if (isObject(call)) pushCall(calls, call.id, isObject(call.function) ? call.function.name : call.name, isObject(call.function) ? call.function.arguments : undefined);
    }
  }),
};

/** OpenAI Responses: `instructions` and `input` (a string or items: messages, function outputs); the reply's output items. */
export const responsesTranscript: TranscriptReader = {
  request: (body) => ({ messages: readMessages(body.input), system: (typeof body.instructions === 'string' ? body.instructions : '') || null }),
  reply: replyReader((response, { texts, reasoning, calls }) => {
    for (const item of list(response.output)) {
      if (!isObject(item)) continue;
      if (item.type === 'message') texts.push(contentText(item.content));
      else if (item.type === 'reasoning') reasoning.push(contentText([...list(item.summary), ...list(item.content)]));
      else if (item.type === 'function_call') pushCall(calls, item.call_id, item.name, item.arguments);
      else if (item.type === 'custom_tool_call') pushCall(calls, item.call_id, item.name, { input: item.input });
      else if (item.type === 'local_shell_call') pushCall(calls, item.call_id, 'local_shell', item.action);
    }
  }),
};
