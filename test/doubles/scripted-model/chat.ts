import type { SseEvent } from './anthropic.js';
import { fencedBash, MINI_SWE_SUBMIT, newId, pickShellTool, pieces, type PlannedReply, type ShellTool } from './script.js';

/**
 * OpenAI Chat Completions as the scripted model speaks it (mini-swe-agent through litellm). Without tools
 * the action goes in a ```bash block of the text, and the final answer is mini-swe-agent's submit command;
 * with a shell function tool it is a tool call (the final answer then also submits through the tool).
 */

type Json = Record<string, unknown>;

export const chatTurnIndex = (body: Json): number =>
  Array.isArray(body.messages) ? body.messages.filter((m) => (m as Json)?.role === 'assistant').length : 0;

export function chatShellTool(body: Json): ShellTool | undefined {
  const tools = Array.isArray(body.tools) ? (body.tools as Json[]) : [];
  const functions = tools.map((t) => t.function as Json | undefined).filter((f): f is Json => typeof f?.name === 'string');
  return pickShellTool(functions.map((f) => ({ name: f.name as string, schema: f.parameters as never })));
}

interface ChatMessage {
  content: string | null;
  toolCall?: { id: string; name: string; arguments: string };
  finish: 'stop' | 'tool_calls';
}

function chatMessage(reply: PlannedReply, shell: ShellTool | undefined): ChatMessage {
  const call = (command: string) => ({ id: newId('call_'), name: shell!.name, arguments: JSON.stringify(shell!.args(command)) });
  if (reply.kind === 'tool') return { content: reply.say ?? null, toolCall: call(reply.command), finish: 'tool_calls' };
  if (!reply.final) return { content: reply.text, finish: 'stop' };
  if (shell) return { content: reply.text, toolCall: call(MINI_SWE_SUBMIT), finish: 'tool_calls' };
  return { content: fencedBash(reply.text, MINI_SWE_SUBMIT), finish: 'stop' };
}

function usageOf(reply: PlannedReply): Json {
  const { input, output, cached } = reply.usage;
  return { prompt_tokens: input, completion_tokens: output, total_tokens: input + output, prompt_tokens_details: { cached_tokens: cached } };
}

export function chatJson(reply: PlannedReply, shell: ShellTool | undefined, model: string): Json {
  const m = chatMessage(reply, shell);
  const toolCalls = m.toolCall ? [{ id: m.toolCall.id, type: 'function', function: { name: m.toolCall.name, arguments: m.toolCall.arguments } }] : undefined;
  return {
    id: newId('chatcmpl-'),
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: m.content, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, logprobs: null, finish_reason: m.finish }],
    usage: usageOf(reply),
  };
}

/**
 * The chunks of a streamed completion: a first chunk with the role, content (or tool call argument)
 * deltas, a chunk with finish_reason, then, when the request asked for stream_options.include_usage, a
 * chunk with empty choices and the usage; then `data: [DONE]`.
 */
export function chatEvents(reply: PlannedReply, shell: ShellTool | undefined, model: string, includeUsage: boolean): SseEvent[] {
  const m = chatMessage(reply, shell);
  const base = { id: newId('chatcmpl-'), object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const events: SseEvent[] = [];
  const chunk = (delta: Json, finish: string | null = null) =>
    events.push({ data: { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...(includeUsage ? { usage: null } : {}) } });
  chunk({ role: 'assistant', content: m.content === null ? null : '' });
  for (const content of pieces(m.content ?? '')) chunk({ content });
  if (m.toolCall) {
    chunk({ tool_calls: [{ index: 0, id: m.toolCall.id, type: 'function', function: { name: m.toolCall.name, arguments: '' } }] });
    for (const args of pieces(m.toolCall.arguments)) chunk({ tool_calls: [{ index: 0, function: { arguments: args } }] });
  }
  chunk({}, m.finish);
  if (includeUsage) events.push({ data: { ...base, choices: [], usage: usageOf(reply) } });
  events.push({ data: '[DONE]' });
  return events;
}
