import { randomUUID } from 'node:crypto';
import { arr, num, obj, str, type Json } from '../apis/types.js';

/**
 * A Chat Completions answer as the Responses answer the agent asked for: the first choice's text as an
 * output message, its tool_calls as function_call items, `length` as an incomplete response, the usage
 * as Responses'; streamed, the chat chunks as Responses events (output_item.added, output_text.delta,
 * function_call_arguments.delta, ... response.completed with the whole response).
 */

const newId = (prefix: string): string => prefix + randomUUID().replace(/-/g, '').slice(0, 24);

function usageOf(usage: unknown): Json {
  const u = obj(usage) ?? {};
  const input = num(u.prompt_tokens);
  const output = num(u.completion_tokens);
  return { input_tokens: input, input_tokens_details: { cached_tokens: num(obj(u.prompt_tokens_details)?.cached_tokens) }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + output };
}

const messageItem = (id: string, text: string, status: string): Json => ({ type: 'message', id, status, role: 'assistant', content: [{ type: 'output_text', text, annotations: [] }] });
const callItem = (id: string, callId: string, name: string, args: string, status: string): Json => ({ type: 'function_call', id, call_id: callId, name, arguments: args, status });

function response(id: string, model: string, output: Json[], finish: unknown, usage: unknown, status?: string): Json {
  const incomplete = finish === 'length';
  return {
    id, object: 'response', created_at: Math.floor(Date.now() / 1000), model, output,
    status: status ?? (incomplete ? 'incomplete' : 'completed'),
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    ...(usage === undefined ? {} : { usage: usageOf(usage) }),
  };
}

/** The Responses `response` of a `chat.completion`. */
export function chatToResponse(completion: Json, model: string): Json {
  const choice = obj(arr(completion.choices)[0]) ?? {};
  const message = obj(choice.message) ?? {};
  const text = str(message.content);
  const output = [
    ...(text ? [messageItem(newId('msg_'), text, 'completed')] : []),
    ...arr(message.tool_calls).map((c) => {
      const call = obj(c) ?? {};
      const fn = obj(call.function) ?? {};
      return callItem(newId('fc_'), str(call.id) || newId('call_'), str(fn.name) ?? '', str(fn.arguments) ?? '{}', 'completed');
    }),
  ];
  return response(newId('resp_'), str(completion.model) ?? model, output, choice.finish_reason, completion.usage ?? {});
}

type Send = (event: string, data: Json) => void;

/** Turns Chat Completions chunks into Responses events as they arrive. */
export class ChatStreamToResponses {
  private readonly id = newId('resp_');
  private sequence = 0;
  private started = false;
  private readonly output: Json[] = [];
  private open: { item: Json; kind: 'text' | number; text: string } | null = null;
  private finish: unknown;
  private usage: unknown;

  constructor(
    private readonly send: Send,
    private model: string,
  ) {}

  private emit(type: string, data: Json): void {
    this.send(type, { type, sequence_number: this.sequence++, ...data });
  }

  chunk(data: Json): void {
    this.start(str(data.model) ?? this.model);
    if (obj(data.usage)) this.usage = data.usage;
    const choice = obj(arr(data.choices)[0]);
    if (!choice) return;
    const delta = obj(choice.delta) ?? {};
    const text = str(delta.content);
    if (text) {
      if (this.open?.kind !== 'text') this.openItem('text', messageItem(newId('msg_'), '', 'in_progress'));
      this.open!.text += text;
      this.emit('response.output_text.delta', { item_id: this.open!.item.id, output_index: this.output.length, content_index: 0, delta: text });
    }
    for (const t of arr(delta.tool_calls)) {
      const piece = obj(t) ?? {};
      const fn = obj(piece.function) ?? {};
      const index = typeof piece.index === 'number' ? piece.index : 0;
      if (this.open?.kind !== index || (str(piece.id) && piece.id !== this.open.item.call_id)) this.openItem(index, callItem(newId('fc_'), str(piece.id) || newId('call_'), str(fn.name) ?? '', '', 'in_progress'));
      const args = str(fn.arguments);
      if (args) {
        this.open!.text += args;
        this.emit('response.function_call_arguments.delta', { item_id: this.open!.item.id, output_index: this.output.length, delta: args });
      }
    }
    if (choice.finish_reason != null) this.finish = choice.finish_reason;
  }

  /** The upstream's stream ended: close the open item and send the whole response. */
  end(): void {
    this.start(this.model);
    this.closeItem();
    const done = response(this.id, this.model, this.output, this.finish, this.usage ?? {});
    this.emit(done.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: done });
  }

  private start(model: string): void {
    if (this.started) return;
    this.started = true;
    this.model = model;
    this.emit('response.created', { response: response(this.id, model, [], null, undefined, 'in_progress') });
  }

  private openItem(kind: 'text' | number, item: Json): void {
    this.closeItem();
    this.open = { item, kind, text: '' };
    this.emit('response.output_item.added', { output_index: this.output.length, item });
    if (kind === 'text') this.emit('response.content_part.added', { item_id: item.id, output_index: this.output.length, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
  }

  private closeItem(): void {
    if (!this.open) return;
    const { item, kind, text } = this.open;
    const index = this.output.length;
    let done: Json;
    if (kind === 'text') {
      done = messageItem(str(item.id)!, text, 'completed');
      this.emit('response.output_text.done', { item_id: item.id, output_index: index, content_index: 0, text });
      this.emit('response.content_part.done', { item_id: item.id, output_index: index, content_index: 0, part: { type: 'output_text', text, annotations: [] } });
    } else {
      done = { ...item, arguments: text, status: 'completed' };
      this.emit('response.function_call_arguments.done', { item_id: item.id, output_index: index, arguments: text });
    }
    this.emit('response.output_item.done', { output_index: index, item: done });
    this.output.push(done);
    this.open = null;
  }
}
