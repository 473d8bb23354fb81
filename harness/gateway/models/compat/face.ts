import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../../../../common/loopback.js';
import { HttpError, readBody, requestToken, sendJson } from '../../http.js';
import { obj, type Json } from '../apis/types.js';
import { SseReader } from '../sse.js';
import { chatErrorToMessages, ChatStreamToMessages, chatToMessage } from './chat-to-messages.js';
import { ChatStreamToResponses, chatToResponse } from './chat-to-responses.js';
import { messagesToChat } from './messages-to-chat.js';
import { responsesToChat } from './responses-to-chat.js';

/**
 * The agents' APIs on loopback, answered by an upstream that speaks only OpenAI Chat Completions: an
 * Anthropic Messages request (Claude Code) or a Responses request (Codex CLI) is translated
 * (messages-to-chat.ts, responses-to-chat.ts), sent to `<baseUrl>/chat/completions`, and its answer
 * translated back (chat-to-messages.ts, chat-to-responses.ts), streamed event by event as the upstream's
 * chunks arrive; a Chat Completions request passes as it is. The model gateway uses this face as the
 * upstream of both APIs, so budgets, usage and the model log work as for any provider (the model log
 * holds each exchange in the agent's API, as the agent had it).
 */

export interface ChatUpstream {
  /** The upstream's OpenAI base URL, with its /v1 (`http://127.0.0.1:11434/v1`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; none when empty (a local server needs none). */
  apiKey: string;
  /** The upstream model every translated request names; absent: the model the agent asked for. */
  model?: string;
}

export interface CompatFace {
  /** http://127.0.0.1:<port>: an Anthropic base URL (no /v1); with /v1, an OpenAI one. */
  url: string;
  /** The key requests must carry (x-api-key or Bearer). */
  key: string;
  close(): Promise<void>;
}

/** One agent API translated to Chat Completions and back. */
interface Translation {
  request(body: Json, model?: string): Json;
  whole(completion: Json, model: string): Json;
  stream(send: (event: string, data: Json) => void, model: string): { chunk(data: Json): void; end(): void };
  /** An upstream error in the API's shape (Responses shares Chat's: it passes as it came). */
  error(status: number, text: string): Json | string;
}

const TRANSLATIONS: Record<string, Translation> = {
  '/v1/messages': { request: messagesToChat, whole: chatToMessage, stream: (send, model) => new ChatStreamToMessages(send, model), error: chatErrorToMessages },
  '/v1/responses': { request: responsesToChat, whole: chatToResponse, stream: (send, model) => new ChatStreamToResponses(send, model), error: (_status, text) => text },
};

const BODY_LIMIT = 64 * 1024 * 1024;

function sendError(res: ServerResponse, anthropic: boolean, status: number, type: string, message: string): void {
  sendJson(res, status, anthropic ? { type: 'error', error: { type, message } } : { error: { message, type, param: null, code: null } });
}

function send(res: ServerResponse, status: number, body: Json | string): void {
  if (typeof body !== 'string') return sendJson(res, status, body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function handle(upstream: ChatUpstream, key: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
  const anthropic = path.startsWith('/v1/messages');
  const translation = TRANSLATIONS[path];
  if (req.method !== 'POST' || (!translation && path !== '/v1/chat/completions' && path !== '/v1/messages/count_tokens')) return sendError(res, anthropic, 404, 'not_found_error', `no route ${req.method} ${path}`);
  const given = requestToken(req) ?? '';
  if (given.length !== key.length || !timingSafeEqual(Buffer.from(given), Buffer.from(key))) return sendError(res, anthropic, 401, 'authentication_error', 'invalid api key');
  if (path.endsWith('count_tokens')) return sendError(res, true, 404, 'not_found_error', 'the upstream speaks Chat Completions, which counts no tokens before a request');
  let raw: Buffer;
  let body: Json;
  try {
    raw = await readBody(req, BODY_LIMIT);
    body = obj(JSON.parse(raw.toString('utf8'))) ?? {};
  } catch (error) {
    return sendError(res, anthropic, error instanceof HttpError ? error.status : 400, 'invalid_request_error', error instanceof HttpError ? error.message : 'the request body is not valid JSON');
  }
  const chat = translation ? translation.request(body, upstream.model) : upstream.model ? { ...body, model: upstream.model } : body;
  const model = String(chat.model);
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  let answer: Response;
  try {
    answer = await fetch(`${upstream.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(upstream.apiKey ? { authorization: `Bearer ${upstream.apiKey}` } : {}) },
      body: translation || upstream.model ? JSON.stringify(chat) : raw,
      signal: gone.signal,
    });
  } catch (error) {
    if (gone.signal.aborted) return;
    return sendError(res, anthropic, 502, 'api_error', `the Chat Completions upstream ${upstream.baseUrl} could not be reached: ${(error as Error).message}`);
  }
  if (!translation) {
    // Chat Completions: the upstream's answer as it comes, streamed or not.
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    for await (const chunk of answer.body ?? []) res.write(chunk as Uint8Array);
    return void res.end();
  }
  await sendTranslated(res, answer, translation, { stream: body.stream === true, model, anthropic, gone: gone.signal });
}

/** The upstream's Chat Completions answer in the API the agent spoke: whole, or as that API's stream events (from a stream or from a whole answer). */
async function sendTranslated(res: ServerResponse, answer: Response, translation: Translation, asked: { stream: boolean; model: string; anthropic: boolean; gone: AbortSignal }): Promise<void> {
  const { model, anthropic, gone } = asked;
  if (!answer.ok) return send(res, answer.status, translation.error(answer.status, await answer.text()));
  const streamed = (answer.headers.get('content-type') ?? '').includes('text/event-stream');
  if (!asked.stream) {
    if (streamed) return sendError(res, anthropic, 502, 'api_error', 'the Chat Completions upstream streamed an answer that was asked for whole');
    return sendJson(res, 200, translation.whole(obj(await answer.json()) ?? {}, model));
  }
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  const events = translation.stream((event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`), model);
  if (!streamed) {
    // Asked to stream, answered whole: the same events, from one chunk holding the whole answer.
    const completion = obj(await answer.json()) ?? {};
    const choice = obj((completion.choices as unknown[] | undefined)?.[0]) ?? {};
    const message = obj(choice.message) ?? {};
    const calls = ((message.tool_calls as Json[] | undefined) ?? []).map((c, index) => ({ ...c, index }));
    events.chunk({ model: completion.model, usage: completion.usage, choices: [{ delta: { content: message.content, tool_calls: calls }, finish_reason: choice.finish_reason }] });
  } else {
    const sse = new SseReader((_event, data) => {
      if (data.trim() === '[DONE]') return;
      try {
        events.chunk(obj(JSON.parse(data)) ?? {});
      } catch {
        // a line that is not JSON carries nothing to translate
      }
    });
    try {
      for await (const chunk of answer.body ?? []) sse.push(chunk as Uint8Array);
      sse.end();
    } catch (error) {
      if (gone.aborted) return;
      const message = `the upstream's stream broke: ${(error as Error).message}`;
      res.write(`event: error\ndata: ${JSON.stringify(anthropic ? { type: 'error', error: { type: 'api_error', message } } : { type: 'error', message })}\n\n`);
      return void res.end();
    }
  }
  events.end();
  res.end();
}

/** Starts the face on 127.0.0.1 (a free port). */
export async function startCompatFace(upstream: ChatUpstream): Promise<CompatFace> {
  const key = `aar-compat-${randomBytes(16).toString('hex')}`;
  const server: Server = createServer((req, res) => {
    handle(upstream, key, req, res).catch((error: Error) => {
      if (res.headersSent) res.destroy(error);
      else sendError(res, true, 500, 'api_error', `AAR gateway translation failed: ${error.message}`);
    });
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, key, close };
}
