import { arr, joined, num, obj, type Json, type StreamAssembler } from '../types.js';

const FINAL = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/** The text part at `index` of an item's `field` (content or summary), made when missing. */
function part(item: Json, field: string, index: number, type: string): Json {
  const parts = (item[field] = arr(item[field])) as Json[];
  return (parts[index] ??= { type, text: '' });
}

/**
 * A Responses stream as the `response` a non-streamed request returns: the one its final event
 * (response.completed, .incomplete or .failed) carries, output included. A stream cut before it gives the
 * last response it announced with the output items seen so far (added, their text, reasoning and
 * argument deltas, done).
 */
export function responsesAssembler(): StreamAssembler {
  let response: Json | undefined;
  let final = false;
  const items: Json[] = [];
  return {
    onEvent(type, data) {
      const announced = obj(data.response);
      if (announced) {
        response = announced;
        final ||= FINAL.has(type);
        return;
      }
      const index = num(data.output_index);
      const delta = data.delta;
      if (type === 'response.output_item.added' || type === 'response.output_item.done') items[index] = { ...obj(data.item) };
      else if (!items[index]) return;
      else if (type === 'response.content_part.added') {
        const parts = (items[index].content = arr(items[index].content));
        parts[num(data.content_index)] ??= { ...obj(data.part) };
      }
      else if (type === 'response.output_text.delta' || type === 'response.reasoning_text.delta') {
        const p = part(items[index], 'content', num(data.content_index), type === 'response.output_text.delta' ? 'output_text' : 'reasoning_text');
        p.text = joined(p.text, delta);
      } else if (type === 'response.reasoning_summary_text.delta') {
        const p = part(items[index], 'summary', num(data.summary_index), 'summary_text');
        p.text = joined(p.text, delta);
      } else if (type === 'response.function_call_arguments.delta') items[index].arguments = joined(items[index].arguments, delta);
    },
    result() {
      if (final && response && arr(response.output).length > 0) return response;
      if (!response && items.length === 0) return undefined;
      return { ...response, output: items.filter(Boolean) };
    },
  };
}
