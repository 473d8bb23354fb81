/**
 * One model exchange of model_log.jsonl as the trajectory reads it, whatever API it spoke: the messages of
 * the request, the tool results it carried back, and the reply. Each model API reads its own shapes (its
 * TranscriptReader, beside its routes: harness/gateway/models/apis/<id>/transcript.ts) with the helpers
 * here, and registers it under its routes' `api` names (readers.ts). Everything here came from the
 * container: every field is checked for its type, nothing is assumed.
 */
export type Json = Record<string, unknown>;

/** A message of a request, other than the model's own earlier replies. */
export interface SaidMessage {
  role: 'system' | 'user';
  text: string;
  /** The message as sent, normalised (cache markers dropped), to find where a request's new part starts. */
  key: string;
}
export interface ToolResult {
  callId: string;
  text: string;
  isError: boolean;
}
export interface ReplyCall {
  id: string;
  name: string;
  args: Record<string, unknown>;
}
export interface Reply {
  text: string;
  reasoning: string;
  calls: ReplyCall[];
}
/** A request's conversation in order: what was said, and tool results (in `said` order, results apart). */
export interface RequestView {
  /** Messages in order; `null` where the message was the model's own earlier reply. */
  messages: ({ said: SaidMessage[]; results: ToolResult[] } | null)[];
  /** The system prompt outside the messages (Anthropic `system`, Responses `instructions`). */
  system: string | null;
}

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string => (typeof v === 'string' ? v : '');
export const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

const dropCacheMarks = (k: string, v: unknown) => (k === 'cache_control' ? undefined : v);
const keyOf = (message: unknown): string => JSON.stringify(message, dropCacheMarks) ?? '';

/** The text of a content value: a string, or the text of each part (other parts named in brackets). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts: string[] = [];
  for (const part of list(content)) {
    if (typeof part === 'string') parts.push(part);
    else if (isObject(part)) {
      const text = part.text ?? part.thinking ?? part.refusal;
      if (typeof text === 'string') parts.push(text);
      else if (part.type === 'tool_result') parts.push(contentText(part.content));
      else parts.push(`[${typeof part.type === 'string' ? part.type : 'part'}]`);
    }
  }
  return parts.join('\n');
}

/** Tool arguments as an object: a JSON text parsed, anything that is not an object kept under `value`. */
export function argsObject(args: unknown): Record<string, unknown> {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return { raw: args };
    }
  }
  return isObject(value) ? value : value === undefined ? {} : { value };
}

function systemOf(role: unknown): 'system' | 'user' | null {
  if (role === 'system' || role === 'developer') return 'system';
  if (role === 'user') return 'user';
  return null;
}

/** One message of a request, in any of the shapes the built-in APIs send (a string, a role's message, a tool result or output item). */
export function readMessage(message: unknown): { said: SaidMessage[]; results: ToolResult[] } | null {
  if (typeof message === 'string') return { said: [{ role: 'user', text: message, key: keyOf(message) }], results: [] };
  if (!isObject(message)) return { said: [], results: [] };
  const key = keyOf(message);
  // OpenAI Chat: a tool message; OpenAI Responses: a function's (or custom tool's) output item.
  if (message.role === 'tool') return { said: [], results: [{ callId: str(message.tool_call_id), text: contentText(message.content), isError: false }] };
  if (typeof message.type === 'string' && message.type.endsWith('_call_output')) {
    return { said: [], results: [{ callId: str(message.call_id), text: contentText(message.output), isError: false }] };
  }
  const role = systemOf(message.role);
  if (!role) return null; // the model's own reply (assistant, function_call, reasoning...): already a step
  const said: SaidMessage[] = [];
  const results: ToolResult[] = [];
  const texts: string[] = [];
  if (typeof message.content === 'string') texts.push(message.content);
  for (const part of list(message.content)) {
    if (isObject(part) && part.type === 'tool_result') results.push({ callId: str(part.tool_use_id), text: contentText(part.content), isError: part.is_error === true });
    else texts.push(contentText([part]));
  }
  const text = texts.filter(Boolean).join('\n');
  if (text) said.push({ role, text, key });
  return { said, results };
}

/** A request's items (a string, or a list of messages or items) read by readMessage. */
export function readMessages(items: unknown): RequestView['messages'] {
  return typeof items === 'string' ? [readMessage(items)] : list(items).map(readMessage);
}

/** How one model API's exchanges read: its request's conversation, and its reply (as the gateway kept it: a stream reassembled). */
export interface TranscriptReader {
  request(body: Json): RequestView;
  reply(body: unknown): Reply;
}

/** What a reply reader fills from a response object. */
export interface ReplyParts {
  texts: string[];
  reasoning: string[];
  calls: ReplyCall[];
}

export function pushCall(calls: ReplyCall[], id: unknown, name: unknown, args: unknown): void {
  calls.push({ id: str(id) || `call_${calls.length + 1}`, name: str(name) || '(unnamed)', args: argsObject(args) });
}

/** A reply reader from the API's part: a response that is no object is its text (a string) or nothing. */
export function replyReader(read: (response: Json, parts: ReplyParts) => void): (response: unknown) => Reply {
  return (response) => {
    if (!isObject(response)) return { text: typeof response === 'string' ? response : '', reasoning: '', calls: [] };
    const parts: ReplyParts = { texts: [], reasoning: [], calls: [] };
    read(response, parts);
    return { text: parts.texts.filter(Boolean).join('\n'), reasoning: parts.reasoning.filter(Boolean).join('\n'), calls: parts.calls };
  };
}

/** Tool definitions in OpenAI's function-calling shape (ATIF's `tool_definitions`), whatever API sent them. */
export function toolDefinitions(tools: unknown): Record<string, unknown>[] {
  return list(tools)
    .filter(isObject)
    .map((tool) => {
      if (tool.type === 'function' && isObject(tool.function)) return tool;
      if (typeof tool.name === 'string' && (tool.input_schema !== undefined || tool.parameters !== undefined || tool.type === 'function')) {
        return { type: 'function', function: { name: tool.name, description: str(tool.description), parameters: tool.input_schema ?? tool.parameters ?? {} } };
      }
      return tool;
    });
}
