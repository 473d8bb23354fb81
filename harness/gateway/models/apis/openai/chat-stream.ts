import { arr, joined, num, obj, str, type Json, type StreamAssembler } from '../types.js';

const TEXT_FIELDS = ['content', 'reasoning_content', 'reasoning', 'refusal'] as const;

/**
 * A Chat Completions stream as the `chat.completion` a non-streamed request returns: per choice, the
 * message's text fields joined from their deltas (content, and the reasoning some providers stream as
 * reasoning_content or reasoning), tool calls by their index (id, name, arguments joined), the finish
 * reason; the usage of the last chunk carrying one.
 */
export function chatAssembler(): StreamAssembler {
  let head: Json | undefined;
  const choices: Json[] = [];
  let usage: unknown;
  return {
    onEvent(_type, data) {
      head ??= { id: data.id, object: 'chat.completion', created: data.created, model: data.model, ...(data.system_fingerprint ? { system_fingerprint: data.system_fingerprint } : {}) };
      if (obj(data.usage)) usage = data.usage;
      for (const c of arr(data.choices)) {
        const chunk = obj(c) ?? {};
        const index = num(chunk.index);
        const choice = (choices[index] ??= { index, message: { role: 'assistant', content: null }, logprobs: null, finish_reason: null });
        const message = choice.message as Json;
        const delta = obj(chunk.delta) ?? {};
        if (str(delta.role)) message.role = delta.role;
        for (const field of TEXT_FIELDS) {
          if (typeof delta[field] === 'string') message[field] = joined(message[field], delta[field]);
        }
        for (const t of arr(delta.tool_calls)) {
          const piece = obj(t) ?? {};
          const calls = (message.tool_calls ??= []) as Json[];
          const call = (calls[num(piece.index)] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
          if (str(piece.id)) call.id = piece.id;
          if (str(piece.type)) call.type = piece.type;
          const fn = call.function as Json;
          const pieceFn = obj(piece.function) ?? {};
          fn.name = joined(fn.name, pieceFn.name);
          fn.arguments = joined(fn.arguments, pieceFn.arguments);
        }
        if (chunk.finish_reason != null) choice.finish_reason = chunk.finish_reason;
      }
    },
    result() {
      if (!head) return undefined;
      return { ...head, choices: choices.filter(Boolean), ...(usage === undefined ? {} : { usage }) };
    },
  };
}
