import { arr, obj, str, type Json } from '../apis/types.js';

/**
 * An OpenAI Responses request (Codex CLI's API) as a Chat Completions request, for an upstream that speaks
 * only Chat Completions: `instructions` and system/developer messages become system messages, message
 * items their text, function_call items an assistant message's tool_calls, function_call_output items
 * `tool` messages, function tools functions. Items a text model cannot use (reasoning, images, built-in
 * tools such as web search) are dropped or become a short marker.
 */

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((part) => {
      const p = obj(part) ?? {};
      return str(p.text) ?? `[${str(p.type) ?? 'part'}]`;
    })
    .join('\n');
}

function messagesOf(input: unknown): Json[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  const messages: Json[] = [];
  for (const entry of arr(input)) {
    const item = obj(entry) ?? {};
    const type = str(item.type) ?? 'message';
    if (type === 'message') {
      const role = item.role === 'developer' || item.role === 'system' ? 'system' : item.role === 'assistant' ? 'assistant' : 'user';
      messages.push({ role, content: textOf(item.content) });
    } else if (type === 'function_call') {
      const call = { id: str(item.call_id) ?? '', type: 'function', function: { name: str(item.name) ?? '', arguments: str(item.arguments) ?? '{}' } };
      const last = messages.at(-1);
      // Calls in a row are one assistant turn.
      if (last?.role === 'assistant' && Array.isArray(last.tool_calls)) (last.tool_calls as Json[]).push(call);
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (type === 'function_call_output') {
      messages.push({ role: 'tool', tool_call_id: str(item.call_id) ?? '', content: textOf(item.output) });
    }
  }
  return messages;
}

function toolChoiceOf(choice: unknown): unknown {
  if (typeof choice === 'string') return choice;
  const c = obj(choice);
  return c?.type === 'function' ? { type: 'function', function: { name: str(c.name) ?? '' } } : undefined;
}

/** The Chat Completions body of a Responses body; `model` replaces the model the agent asked for when given. */
export function responsesToChat(body: Json, model?: string): Json {
  const instructions = str(body.instructions);
  const messages = [...(instructions ? [{ role: 'system', content: instructions }] : []), ...messagesOf(body.input)];
  const tools = arr(body.tools)
    .map((t) => obj(t) ?? {})
    .filter((t) => t.type === 'function')
    .map((t) => ({ type: 'function', function: { name: str(t.name) ?? '', ...(str(t.description) ? { description: t.description } : {}), parameters: obj(t.parameters) ?? { type: 'object', properties: {} } } }));
  const toolChoice = tools.length ? toolChoiceOf(body.tool_choice) : undefined;
  return {
    model: model ?? str(body.model) ?? '',
    messages,
    ...(typeof body.max_output_tokens === 'number' ? { max_tokens: body.max_output_tokens } : {}),
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    ...(typeof body.top_p === 'number' ? { top_p: body.top_p } : {}),
    ...(tools.length ? { tools } : {}),
    ...(toolChoice === undefined ? {} : { tool_choice: toolChoice }),
    ...(body.stream === true ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}
