import type { ChatHistoryItem, ChatModelFunctionCall } from './llama-api.js';

/**
 * The three model APIs' requests, read into one request the local model answers: the conversation as
 * node-llama-cpp's chat history (tool calls with their results attached), the tools, the tool choice and
 * the output limit. Parts the local model cannot use (images, documents, reasoning items) become a short
 * text marker, so the conversation keeps its shape.
 */

export type LocalApi = 'anthropic' | 'chat' | 'responses';

export interface LocalTool {
  name: string;
  description?: string;
  /** The tool's JSON schema, as the agent sent it. */
  parameters: unknown;
}

export type ToolChoice = { kind: 'auto' } | { kind: 'none' } | { kind: 'required' } | { kind: 'tool'; name: string };

export interface LocalRequest {
  model: string;
  stream: boolean;
  history: ChatHistoryItem[];
  tools: LocalTool[];
  toolChoice: ToolChoice;
  maxTokens?: number;
  temperature?: number;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Text of a content value: a string, or parts with `text` (other parts become `[type]`). */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((part) => {
      const p = obj(part);
      return str(p.text) ?? (p.type === 'tool_result' || p.type === 'tool_use' ? '' : `[${String(p.type ?? 'part')}]`);
    })
    .filter(Boolean)
    .join('\n');
}

function parseArguments(text: unknown): unknown {
  if (typeof text !== 'string') return text ?? {};
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Builds a chat history, attaching each tool result to the call it answers (by id). */
class HistoryBuilder {
  readonly items: ChatHistoryItem[] = [];
  private readonly calls = new Map<string, ChatModelFunctionCall>();

  system(text: string): void {
    if (text) this.items.push({ type: 'system', text });
  }
  user(text: string): void {
    const last = this.items.at(-1);
    if (last?.type === 'user') last.text += `\n${text}`;
    else this.items.push({ type: 'user', text });
  }
  private model(): { type: 'model'; response: ChatModelFunctionCall['result'][] } {
    const last = this.items.at(-1);
    if (last?.type === 'model') return last;
    const item = { type: 'model' as const, response: [] };
    this.items.push(item);
    return item;
  }
  modelText(text: string): void {
    if (text) this.model().response.push(text);
  }
  modelCall(id: string, name: string, params: unknown): void {
    const call: ChatModelFunctionCall = { type: 'functionCall', name, params, result: '' };
    this.calls.set(id, call);
    this.model().response.push(call);
  }
  /** A tool result: attached to its call, or a user message when the call is unknown. */
  toolResult(id: string, text: string): void {
    const call = this.calls.get(id);
    if (call) call.result = text;
    else this.user(`Tool result: ${text}`);
  }
}

function anthropicRequest(body: Json): Omit<LocalRequest, 'model' | 'stream'> {
  const h = new HistoryBuilder();
  h.system(textOf(body.system));
  for (const message of arr(body.messages).map(obj)) {
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : arr(message.content).map(obj);
    for (const block of blocks) {
      if (message.role === 'assistant') {
        if (block.type === 'tool_use') h.modelCall(String(block.id), String(block.name), block.input ?? {});
        else if (block.type === 'text') h.modelText(String(block.text ?? ''));
      } else if (block.type === 'tool_result') h.toolResult(String(block.tool_use_id), textOf(block.content));
      else h.user(str(block.text) ?? `[${String(block.type)}]`);
    }
  }
  const choice = obj(body.tool_choice);
  const toolChoice: ToolChoice =
    choice.type === 'any' ? { kind: 'required' } : choice.type === 'tool' ? { kind: 'tool', name: String(choice.name) } : choice.type === 'none' ? { kind: 'none' } : { kind: 'auto' };
  const tools = arr(body.tools)
    .map(obj)
    .filter((t) => typeof t.name === 'string' && t.input_schema)
    .map((t) => ({ name: t.name as string, description: str(t.description), parameters: t.input_schema }));
  return { history: h.items, tools, toolChoice, maxTokens: num(body.max_tokens), temperature: num(body.temperature) };
}

/** OpenAI's tool_choice (Chat: `{type: function, function: {name}}`, Responses: `{type: function, name}`). */
function openaiToolChoice(value: unknown): ToolChoice {
  if (value === 'none') return { kind: 'none' };
  if (value === 'required') return { kind: 'required' };
  const o = obj(value);
  const name = str(obj(o.function).name) ?? str(o.name);
  return o.type === 'function' && name ? { kind: 'tool', name } : { kind: 'auto' };
}

function chatRequest(body: Json): Omit<LocalRequest, 'model' | 'stream'> {
  const h = new HistoryBuilder();
  for (const message of arr(body.messages).map(obj)) {
    const text = textOf(message.content);
    if (message.role === 'system' || message.role === 'developer') h.system(text);
    else if (message.role === 'assistant') {
      h.modelText(text);
      for (const call of arr(message.tool_calls).map(obj)) {
        const fn = obj(call.function);
        h.modelCall(String(call.id), String(fn.name), parseArguments(fn.arguments));
      }
    } else if (message.role === 'tool') h.toolResult(String(message.tool_call_id), text);
    else h.user(text);
  }
  const tools = arr(body.tools)
    .map(obj)
    .filter((t) => t.type === 'function' && typeof obj(t.function).name === 'string')
    .map((t) => {
      const fn = obj(t.function);
      return { name: fn.name as string, description: str(fn.description), parameters: fn.parameters ?? { type: 'object', properties: {} } };
    });
  return { history: h.items, tools, toolChoice: openaiToolChoice(body.tool_choice), maxTokens: num(body.max_completion_tokens) ?? num(body.max_tokens), temperature: num(body.temperature) };
}

function responsesRequest(body: Json): Omit<LocalRequest, 'model' | 'stream'> {
  const h = new HistoryBuilder();
  h.system(str(body.instructions) ?? '');
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : arr(body.input).map(obj);
  for (const item of input) {
    if (item.type === 'function_call') h.modelCall(String(item.call_id), String(item.name), parseArguments(item.arguments));
    else if (item.type === 'function_call_output') h.toolResult(String(item.call_id), textOf(item.output));
    else if (item.type === undefined || item.type === 'message') {
      const text = textOf(item.content);
      if (item.role === 'assistant') h.modelText(text);
      else if (item.role === 'system' || item.role === 'developer') h.system(text);
      else h.user(text);
    }
  }
  const tools = arr(body.tools)
    .map(obj)
    .filter((t) => t.type === 'function' && typeof t.name === 'string')
    .map((t) => ({ name: t.name as string, description: str(t.description), parameters: t.parameters ?? { type: 'object', properties: {} } }));
  return { history: h.items, tools, toolChoice: openaiToolChoice(body.tool_choice), maxTokens: num(body.max_output_tokens), temperature: num(body.temperature) };
}

/** Reads a request body of one of the APIs. */
export function readLocalRequest(api: LocalApi, body: Json): LocalRequest {
  const read = api === 'anthropic' ? anthropicRequest : api === 'chat' ? chatRequest : responsesRequest;
  return { model: str(body.model) ?? 'local', stream: body.stream === true, ...read(body) };
}
