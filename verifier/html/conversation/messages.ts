import type { ChatMessage, ChatPart } from '../model.js';

/**
 * The request and answer bodies of model_log.jsonl, read into one shape for the trial page whatever the API
 * (Anthropic Messages, OpenAI Responses, OpenAI Chat): messages of parts (text, reasoning, tool call, tool
 * result). The bodies are what an agent in a container sent and what came back: any field may be missing or
 * of another type, so every read checks what it gets and keeps what it cannot read as an `other` part.
 */

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** Tool arguments as text: a JSON string parsed and written again (compact), so the same call reads the same in a request and an answer. */
function argsText(v: unknown): string {
  if (typeof v === 'string') {
    try {
      return JSON.stringify(JSON.parse(v));
    } catch {
      return v;
    }
  }
  return str(v);
}

/** A block's text content, whatever it holds: a string, text blocks, or anything else as JSON. */
function contentText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : isObject(b) && b.type === 'image' ? '[image]' : str(b))).join('\n');
  return str(v);
}

/** One content block of any of the three APIs as a part. */
function partOf(block: unknown): ChatPart {
  if (typeof block === 'string') return { kind: 'text', text: block };
  if (!isObject(block)) return { kind: 'other', text: str(block) };
  switch (block.type) {
    case 'text':
    case 'input_text':
    case 'output_text':
      return { kind: 'text', text: str(block.text) };
    case 'thinking':
      return { kind: 'reasoning', text: str(block.thinking) };
    case 'redacted_thinking':
      return { kind: 'reasoning', text: '(redacted by the provider)' };
    case 'reasoning': {
      const summary = list(block.summary).map((s) => (isObject(s) ? str(s.text) : str(s)));
      const content = list(block.content).map((s) => (isObject(s) ? str(s.text) : str(s)));
      const text = [...summary, ...content].filter(Boolean).join('\n');
      return { kind: 'reasoning', text: text || (block.encrypted_content ? '(encrypted by the provider)' : '') };
    }
    case 'tool_use':
    case 'server_tool_use':
      return { kind: 'tool_call', name: str(block.name), id: str(block.id), text: argsText(block.input) };
    case 'function_call':
      return { kind: 'tool_call', name: str(block.name), id: str(block.call_id), text: argsText(block.arguments) };
    case 'custom_tool_call':
      return { kind: 'tool_call', name: str(block.name), id: str(block.call_id), text: str(block.input) };
    case 'local_shell_call':
      return { kind: 'tool_call', name: 'local_shell', id: str(block.call_id), text: argsText(isObject(block.action) ? block.action.command : block.action) };
    case 'tool_result':
      return { kind: 'tool_result', id: str(block.tool_use_id), text: contentText(block.content), ...(block.is_error === true ? { error: true } : {}) };
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output':
      return { kind: 'tool_result', id: str(block.call_id), text: contentText(block.output) };
    case 'image':
    case 'input_image':
      return { kind: 'other', text: '[image]' };
    default:
      return { kind: 'other', text: str(block) };
  }
}

/** Roles a Responses item takes when it is not a message (a call is the assistant's, its output the tool's). */
function itemRole(item: Json): string {
  if (typeof item.role === 'string') return item.role;
  if (/_output$/.test(str(item.type))) return 'tool';
  return 'assistant';
}

/** One message of Anthropic's or Chat's `messages`, or one item of a Responses `input`. */
function messageOf(raw: unknown): ChatMessage {
  if (!isObject(raw)) return { role: 'unknown', parts: [partOf(raw)] };
  if (raw.type !== undefined && raw.type !== 'message') return { role: itemRole(raw), parts: [partOf(raw)] };
  const role = str(raw.role) || 'unknown';
  const parts: ChatPart[] = typeof raw.content === 'string' ? [{ kind: 'text', text: raw.content }] : list(raw.content).map(partOf);
  // Chat: the assistant's reasoning and tool calls beside its content; a tool message's id.
  for (const key of ['reasoning_content', 'reasoning']) if (typeof raw[key] === 'string' && raw[key]) parts.unshift({ kind: 'reasoning', text: raw[key] as string });
  for (const call of list(raw.tool_calls)) {
    const fn = isObject(call) && isObject(call.function) ? call.function : {};
    parts.push({ kind: 'tool_call', name: str(fn.name), id: isObject(call) ? str(call.id) : '', text: argsText(fn.arguments) });
  }
  if (role === 'tool') return { role, parts: parts.map((p) => (p.kind === 'text' ? { kind: 'tool_result', id: str(raw.tool_call_id), text: p.text } : p)) };
  return { role, parts };
}

/** The system prompt (Anthropic `system`, Responses `instructions`) and the messages of a request body. */
export function requestMessages(request: unknown): { system: string | null; messages: ChatMessage[] } {
  if (!isObject(request)) return { system: null, messages: [] };
  const system = request.system ?? request.instructions;
  const input = typeof request.input === 'string' ? [{ role: 'user', content: request.input }] : list(request.input);
  const messages = [...list(request.messages), ...input].map(messageOf);
  return { system: system === undefined || system === null ? null : contentText(system), messages };
}

/** What came back: the assistant's message (text, reasoning, tool calls), an error body's message, or a body that was not JSON. */
export function responseMessage(response: unknown): ChatMessage | null {
  if (response === undefined || response === null) return null;
  if (typeof response === 'string') return { role: 'error', parts: [{ kind: 'text', text: response }] };
  if (!isObject(response)) return { role: 'unknown', parts: [partOf(response)] };
  if (isObject(response.error) || response.type === 'error') {
    const error = isObject(response.error) ? response.error : response;
    return { role: 'error', parts: [{ kind: 'text', text: str(error.message) || str(error) }] };
  }
  if (Array.isArray(response.content)) return { role: 'assistant', parts: response.content.map(partOf) };
  if (Array.isArray(response.output)) {
    const parts = response.output.flatMap((item) => (isObject(item) && item.type === 'message' ? list(item.content).map(partOf) : [partOf(item)]));
    return { role: 'assistant', parts };
  }
  if (Array.isArray(response.choices)) {
    const parts = response.choices.flatMap((c) => (isObject(c) && isObject(c.message) ? messageOf({ role: 'assistant', ...c.message }).parts : []));
    return { role: 'assistant', parts };
  }
  return { role: 'unknown', parts: [{ kind: 'other', text: str(response) }] };
}
