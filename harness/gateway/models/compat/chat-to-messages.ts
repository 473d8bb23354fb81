import { randomUUID } from 'node:crypto';
import { arr, num, obj, str, type Json } from '../apis/types.js';

/**
 * A Chat Completions answer as the Anthropic Messages answer the agent asked for: the first choice's text
 * as a text block and its tool_calls as tool_use blocks (arguments parsed back into `input`), the finish
 * reason as a stop reason, the usage as Anthropic's; streamed, each chat chunk as the Messages events it
 * stands for. An upstream error body becomes an Anthropic error with the upstream's message.
 */

const STOP_REASONS: Record<string, string> = { stop: 'end_turn', length: 'max_tokens', tool_calls: 'tool_use', function_call: 'tool_use', content_filter: 'refusal' };
const stopReason = (finish: unknown): string => STOP_REASONS[str(finish) ?? 'stop'] ?? 'end_turn';
const newId = (prefix: string): string => prefix + randomUUID().replace(/-/g, '').slice(0, 24);

function usageOf(usage: unknown): Json {
  const u = obj(usage) ?? {};
  const cached = num(obj(u.prompt_tokens_details)?.cached_tokens);
  return { input_tokens: num(u.prompt_tokens) - cached, cache_creation_input_tokens: 0, cache_read_input_tokens: cached, output_tokens: num(u.completion_tokens) };
}

function parsedArguments(text: unknown): unknown {
  if (typeof text !== 'string') return obj(text) ?? {};
  try {
    return JSON.parse(text || '{}') as unknown;
  } catch {
    // Not JSON (a small model's slip): the agent sees what came, under a key it can show.
    return { arguments: text };
  }
}

/** The Messages `message` of a `chat.completion`. */
export function chatToMessage(completion: Json, model: string): Json {
  const choice = obj(arr(completion.choices)[0]) ?? {};
  const message = obj(choice.message) ?? {};
  const text = str(message.content);
  const calls = arr(message.tool_calls).map((c) => obj(c) ?? {});
  return {
    id: newId('msg_'),
    type: 'message',
    role: 'assistant',
    model: str(completion.model) ?? model,
    content: [
      ...(text ? [{ type: 'text', text }] : []),
      ...calls.map((c) => ({ type: 'tool_use', id: str(c.id) || newId('toolu_'), name: str(obj(c.function)?.name) ?? '', input: parsedArguments(obj(c.function)?.arguments) })),
    ],
    stop_reason: calls.length ? 'tool_use' : stopReason(choice.finish_reason),
    stop_sequence: null,
    usage: usageOf(completion.usage),
  };
}

/** An upstream error (any status, any body) as an Anthropic error body. */
export function chatErrorToMessages(status: number, body: string): Json {
  let message = body.slice(0, 2000);
  try {
    const parsed = obj(JSON.parse(body)) ?? {};
    message = str(obj(parsed.error)?.message) ?? str(parsed.error) ?? str(parsed.message) ?? message;
  } catch {
    // not JSON: its text is the message
  }
  const type = status === 400 || status === 413 ? 'invalid_request_error' : status === 401 ? 'authentication_error' : status === 404 ? 'not_found_error' : status === 429 ? 'rate_limit_error' : 'api_error';
  return { type: 'error', error: { type, message } };
}

type Send = (event: string, data: Json) => void;

/**
 * Turns Chat Completions chunks into Messages events as they arrive: message_start on the first chunk,
 * a text block while text comes, one tool_use block per tool call (its arguments as input_json_delta),
 * then at the end message_delta with the stop reason and the usage (the upstream's last usage chunk)
 * and message_stop.
 */
export class ChatStreamToMessages {
  private started = false;
  private block = -1;
  private open: 'text' | number | null = null;
  private finish: unknown;
  private usage: unknown;
  private sawTool = false;
  private toolId: string | undefined;

  constructor(
    private readonly send: Send,
    private readonly model: string,
  ) {}

  chunk(data: Json): void {
    this.start(str(data.model) ?? this.model);
    if (obj(data.usage)) this.usage = data.usage;
    const choice = obj(arr(data.choices)[0]);
    if (!choice) return;
    const delta = obj(choice.delta) ?? {};
    const text = str(delta.content);
    if (text) {
      if (this.open !== 'text') this.openBlock('text', { type: 'text', text: '' });
      this.send('content_block_delta', { type: 'content_block_delta', index: this.block, delta: { type: 'text_delta', text } });
    }
    for (const t of arr(delta.tool_calls)) {
      const piece = obj(t) ?? {};
      const fn = obj(piece.function) ?? {};
      const index = typeof piece.index === 'number' ? piece.index : 0;
      // A new call: another index, or another id at the same index (some servers repeat the id on every chunk).
      if (this.open !== index || (str(piece.id) && piece.id !== this.toolId)) {
        this.sawTool = true;
        this.toolId = str(piece.id) || newId('toolu_');
        this.openBlock(index, { type: 'tool_use', id: this.toolId, name: str(fn.name) ?? '', input: {} });
      }
      const args = str(fn.arguments);
      if (args) this.send('content_block_delta', { type: 'content_block_delta', index: this.block, delta: { type: 'input_json_delta', partial_json: args } });
    }
    if (choice.finish_reason != null) this.finish = choice.finish_reason;
  }

  /** The upstream's stream ended: close what is open and say why it stopped. */
  end(): void {
    this.start(this.model);
    this.closeBlock();
    this.send('message_delta', { type: 'message_delta', delta: { stop_reason: this.sawTool ? 'tool_use' : stopReason(this.finish), stop_sequence: null }, usage: usageOf(this.usage) });
    this.send('message_stop', { type: 'message_stop' });
  }

  private start(model: string): void {
    if (this.started) return;
    this.started = true;
    this.send('message_start', { type: 'message_start', message: { id: newId('msg_'), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: usageOf(undefined) } });
  }

  private openBlock(kind: 'text' | number, block: Json): void {
    this.closeBlock();
    this.open = kind;
    this.send('content_block_start', { type: 'content_block_start', index: ++this.block, content_block: block });
  }

  private closeBlock(): void {
    if (this.open === null) return;
    this.send('content_block_stop', { type: 'content_block_stop', index: this.block });
    this.open = null;
  }
}
