import type { SseEvent } from './anthropic.js';
import { newId, pickShellTool, pieces, type PlannedReply, type ShellTool } from './script.js';

/** OpenAI Responses as the scripted model speaks it (what Codex sends and expects). */

type Json = Record<string, unknown>;

const MODEL_ITEMS = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);

/** The turn index: items the model produced earlier (function calls, assistant messages) in `input`. */
export function responsesTurnIndex(body: Json): number {
  if (!Array.isArray(body.input)) return 0;
  return body.input.filter((item) => {
    const i = item as Json;
    return MODEL_ITEMS.has(i?.type as string) || ((i?.type === 'message' || i?.type === undefined) && i?.role === 'assistant');
  }).length;
}

export function responsesShellTool(body: Json): ShellTool | undefined {
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  return pickShellTool(tools.filter((t) => t.type === 'function' && typeof t.name === 'string').map((t) => ({ name: t.name as string, schema: t.parameters as never })));
}

function usageOf(reply: PlannedReply): Json {
  const { input, output, cached } = reply.usage;
  return { input_tokens: input, input_tokens_details: { cached_tokens: cached }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + output };
}

function outputItem(reply: PlannedReply): Json {
  if (reply.kind === 'tool') {
    return { type: 'function_call', id: newId('fc_'), call_id: newId('call_'), name: reply.tool, arguments: JSON.stringify(reply.input), status: 'completed' };
  }
  return { type: 'message', id: newId('msg_'), role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] };
}

function responseObject(id: string, model: string, status: string, output: Json[], usage: Json | null): Json {
  return { id, object: 'response', created_at: Math.floor(Date.now() / 1000), status, error: null, incomplete_details: null, model, output, parallel_tool_calls: false, store: false, tool_choice: 'auto', usage };
}

export function responsesJson(reply: PlannedReply, model: string): Json {
  return responseObject(newId('resp_'), model, 'completed', [outputItem(reply)], usageOf(reply));
}

/**
 * The event sequence of a streamed response: response.created, response.in_progress,
 * response.output_item.added, then for a message response.content_part.added /
 * response.output_text.delta... / response.output_text.done / response.content_part.done, or for a call
 * response.function_call_arguments.delta... / .done; response.output_item.done, response.completed.
 */
export function responsesEvents(reply: PlannedReply, model: string): SseEvent[] {
  const events: SseEvent[] = [];
  const add = (data: Json) => events.push({ event: data.type as string, data: { ...data, sequence_number: events.length } });
  const id = newId('resp_');
  const item = outputItem(reply);
  const output_index = 0;
  add({ type: 'response.created', response: responseObject(id, model, 'in_progress', [], null) });
  add({ type: 'response.in_progress', response: responseObject(id, model, 'in_progress', [], null) });
  if (item.type === 'function_call') {
    add({ type: 'response.output_item.added', output_index, item: { ...item, arguments: '', status: 'in_progress' } });
    for (const delta of pieces(item.arguments as string)) add({ type: 'response.function_call_arguments.delta', item_id: item.id, output_index, delta });
    add({ type: 'response.function_call_arguments.done', item_id: item.id, output_index, arguments: item.arguments });
  } else {
    const text = (reply as { text: string }).text;
    const part = { type: 'output_text', text: '', annotations: [] };
    add({ type: 'response.output_item.added', output_index, item: { ...item, status: 'in_progress', content: [] } });
    add({ type: 'response.content_part.added', item_id: item.id, output_index, content_index: 0, part });
    for (const delta of pieces(text)) add({ type: 'response.output_text.delta', item_id: item.id, output_index, content_index: 0, delta, logprobs: [] });
    add({ type: 'response.output_text.done', item_id: item.id, output_index, content_index: 0, text, logprobs: [] });
    add({ type: 'response.content_part.done', item_id: item.id, output_index, content_index: 0, part: { ...part, text } });
  }
  add({ type: 'response.output_item.done', output_index, item });
  add({ type: 'response.completed', response: responseObject(id, model, 'completed', [item], usageOf(reply)) });
  return events;
}
