import { newId, pickShellTool, pieces, type PlannedReply, type ShellTool } from './script.js';

/** Anthropic Messages as the scripted model speaks it (what Claude Code sends and expects). */

type Json = Record<string, unknown>;
export interface SseEvent {
  event?: string;
  data: unknown;
}

/** The turn index: assistant messages already in the conversation. */
export const anthropicTurnIndex = (body: Json): number =>
  Array.isArray(body.messages) ? body.messages.filter((m) => (m as Json)?.role === 'assistant').length : 0;

export function anthropicShellTool(body: Json): ShellTool | undefined {
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  return pickShellTool(tools.filter((t) => typeof t.name === 'string').map((t) => ({ name: t.name as string, schema: t.input_schema as never })));
}

function usageOf(reply: PlannedReply, output: number): Json {
  return { input_tokens: reply.usage.input - reply.usage.cached, cache_creation_input_tokens: 0, cache_read_input_tokens: reply.usage.cached, output_tokens: output };
}

function contentOf(reply: PlannedReply, toolId: string): Json[] {
  if (reply.kind === 'text') return [{ type: 'text', text: reply.text }];
  return [...(reply.say ? [{ type: 'text', text: reply.say }] : []), { type: 'tool_use', id: toolId, name: reply.tool, input: reply.input }];
}

const stopReason = (reply: PlannedReply): string => (reply.kind === 'tool' ? 'tool_use' : 'end_turn');

export function anthropicJson(reply: PlannedReply, model: string): Json {
  return {
    id: newId('msg_'),
    type: 'message',
    role: 'assistant',
    model,
    content: contentOf(reply, newId('toolu_')),
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: usageOf(reply, reply.usage.output),
  };
}

/**
 * The event sequence of a streamed message: message_start (usage with output_tokens 1), ping, per content
 * block content_block_start / content_block_delta (text_delta or input_json_delta) / content_block_stop,
 * message_delta (stop_reason and the final output_tokens), message_stop.
 */
export function anthropicEvents(reply: PlannedReply, model: string): SseEvent[] {
  const events: SseEvent[] = [];
  const add = (data: Json) => events.push({ event: data.type as string, data });
  add({
    type: 'message_start',
    message: { id: newId('msg_'), type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: usageOf(reply, 1) },
  });
  add({ type: 'ping' });
  contentOf(reply, newId('toolu_')).forEach((block, index) => {
    if (block.type === 'text') {
      add({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      for (const text of pieces(block.text as string)) add({ type: 'content_block_delta', index, delta: { type: 'text_delta', text } });
    } else {
      add({ type: 'content_block_start', index, content_block: { ...block, input: {} } });
      for (const partial_json of pieces(JSON.stringify(block.input))) add({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json } });
    }
    add({ type: 'content_block_stop', index });
  });
  add({ type: 'message_delta', delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: { output_tokens: reply.usage.output } });
  add({ type: 'message_stop' });
  return events;
}
