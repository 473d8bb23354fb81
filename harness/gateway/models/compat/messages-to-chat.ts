import { arr, obj, str, type Json } from '../apis/types.js';

/**
 * An Anthropic Messages request as an OpenAI Chat Completions request, for an upstream that speaks only
 * Chat Completions (Ollama, vLLM, llama.cpp's server, a LiteLLM proxy): the system prompt becomes the
 * first message, text blocks become message text, an assistant's tool_use blocks its tool_calls, a user's
 * tool_result blocks one `tool` message each (ahead of the user's own text, as Chat Completions wants them
 * right after the call), tools and tool_choice their function forms. Parts a text model cannot take
 * (images, documents) become a short marker; thinking blocks are dropped (the upstream did not make them).
 */

/** Text of a content value: a string, or blocks with `text` (other blocks become `[type]`). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((block) => {
      const b = obj(block) ?? {};
      return str(b.text) ?? `[${str(b.type) ?? 'part'}]`;
    })
    .join('\n');
}

function userMessages(content: unknown): Json[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const tools: Json[] = [];
  const texts: string[] = [];
  for (const block of arr(content)) {
    const b = obj(block) ?? {};
    if (b.type === 'tool_result') {
      const text = textOf(b.content ?? '');
      tools.push({ role: 'tool', tool_call_id: str(b.tool_use_id) ?? '', content: b.is_error === true ? `[error] ${text}` : text });
    } else if (b.type === 'text') texts.push(str(b.text) ?? '');
    else texts.push(`[${str(b.type) ?? 'part'}]`);
  }
  return [...tools, ...(texts.length ? [{ role: 'user', content: texts.join('\n') }] : [])];
}

function assistantMessage(content: unknown): Json {
  if (typeof content === 'string') return { role: 'assistant', content };
  const texts: string[] = [];
  const calls: Json[] = [];
  for (const block of arr(content)) {
    const b = obj(block) ?? {};
    if (b.type === 'text') texts.push(str(b.text) ?? '');
    else if (b.type === 'tool_use') calls.push({ id: str(b.id) ?? '', type: 'function', function: { name: str(b.name) ?? '', arguments: JSON.stringify(b.input ?? {}) } });
  }
  return { role: 'assistant', content: texts.length ? texts.join('\n') : null, ...(calls.length ? { tool_calls: calls } : {}) };
}

function toolChoiceOf(choice: unknown): unknown {
  const c = obj(choice);
  if (!c) return undefined;
  if (c.type === 'any') return 'required';
  if (c.type === 'tool') return { type: 'function', function: { name: str(c.name) ?? '' } };
  return c.type === 'none' ? 'none' : 'auto';
}

/** The Chat Completions body of a Messages body; `model` replaces the model the agent asked for when given. */
export function messagesToChat(body: Json, model?: string): Json {
  const messages: Json[] = [];
  const system = body.system === undefined ? '' : textOf(body.system);
  if (system) messages.push({ role: 'system', content: system });
  for (const m of arr(body.messages)) {
    const message = obj(m) ?? {};
    if (message.role === 'assistant') messages.push(assistantMessage(message.content));
    else messages.push(...userMessages(message.content));
  }
  // Server tools (web search and the like) have no input_schema: only client tools become functions.
  const tools = arr(body.tools)
    .map((t) => obj(t) ?? {})
    .filter((t) => obj(t.input_schema))
    .map((t) => ({ type: 'function', function: { name: str(t.name) ?? '', ...(str(t.description) ? { description: t.description } : {}), parameters: t.input_schema } }));
  const toolChoice = tools.length ? toolChoiceOf(body.tool_choice) : undefined;
  const stream = body.stream === true;
  return {
    model: model ?? str(body.model) ?? '',
    messages,
    ...(typeof body.max_tokens === 'number' ? { max_tokens: body.max_tokens } : {}),
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    ...(typeof body.top_p === 'number' ? { top_p: body.top_p } : {}),
    ...(arr(body.stop_sequences).length ? { stop: body.stop_sequences } : {}),
    ...(tools.length ? { tools } : {}),
    ...(toolChoice === undefined ? {} : { tool_choice: toolChoice }),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  };
}
