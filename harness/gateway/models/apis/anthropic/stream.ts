import { arr, joined, num, obj, type Json, type StreamAssembler } from '../types.js';

/** `partial_json` pieces joined: the tool input as JSON, or the raw text when it does not parse (a cut stream). */
function inputOf(partial: string): unknown {
  try {
    return JSON.parse(partial) as unknown;
  } catch {
    return partial;
  }
}

/**
 * A Messages stream as the `message` a non-streamed request returns: message_start's message, each
 * content block from content_block_start plus its deltas (text, thinking and its signature, tool input
 * JSON, citations), then message_delta's stop reason and usage.
 */
export function anthropicAssembler(): StreamAssembler {
  let message: Json | undefined;
  const blocks: Json[] = [];
  const partialInput = new Map<number, string>();
  return {
    onEvent(type, data) {
      const index = num(data.index);
      if (type === 'message_start') message = { ...obj(data.message) };
      else if (type === 'content_block_start') blocks[index] = { ...obj(data.content_block) };
      else if (type === 'content_block_delta') {
        const delta = obj(data.delta) ?? {};
        const block = (blocks[index] ??= {});
        if (delta.type === 'text_delta') block.text = joined(block.text, delta.text);
        else if (delta.type === 'thinking_delta') block.thinking = joined(block.thinking, delta.thinking);
        else if (delta.type === 'signature_delta') block.signature = delta.signature;
        else if (delta.type === 'input_json_delta') partialInput.set(index, joined(partialInput.get(index), delta.partial_json));
        else if (delta.type === 'citations_delta') block.citations = [...arr(block.citations), delta.citation];
      } else if (type === 'message_delta') {
        message = { ...message, ...obj(data.delta), usage: { ...obj(message?.usage), ...obj(data.usage) } };
      }
    },
    result() {
      if (!message && blocks.length === 0) return undefined;
      const content = blocks.map((block, i) => (partialInput.get(i) ? { ...block, input: inputOf(partialInput.get(i)!) } : block)).filter(Boolean);
      return { ...message, content };
    },
  };
}
