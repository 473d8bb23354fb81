import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpError, readJson, requestToken, sendJson } from '../../http.js';
import { obj, type Json } from '../apis/types.js';
import { SseReader } from '../sse.js';
import { chatErrorToMessages, ChatStreamToMessages, chatToMessage } from './chat-to-messages.js';
import { messagesToChat } from './messages-to-chat.js';

/**
 * Anthropic Messages on loopback, answered by an upstream that speaks only OpenAI Chat Completions: each
 * request is translated (messages-to-chat.ts), sent to `<baseUrl>/chat/completions`, and its answer
 * translated back (chat-to-messages.ts), streamed event by event as the upstream's chunks arrive. The model
 * gateway uses this face as the upstream of its Anthropic route, so budgets, usage and the model log work
 * as for any provider (the model log holds the exchange in Anthropic's shape, as the agent had it).
 */

export interface ChatUpstream {
  /** The upstream's OpenAI base URL, with its /v1 (`http://127.0.0.1:11434/v1`). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer`; none when empty (a local server needs none). */
  apiKey: string;
  /** The upstream model every translated request names; absent: the model the agent asked for. */
  model?: string;
}

export interface MessagesFace {
  /** http://127.0.0.1:<port>: an Anthropic base URL (no /v1). */
  url: string;
  /** The key requests must carry (x-api-key or Bearer). */
  key: string;
  close(): Promise<void>;
}

const BODY_LIMIT = 64 * 1024 * 1024;

function sendError(res: ServerResponse, status: number, type: string, message: string): void {
  sendJson(res, status, { type: 'error', error: { type, message } });
}

async function handle(upstream: ChatUpstream, key: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
  if (req.method !== 'POST' || (path !== '/v1/messages' && path !== '/v1/messages/count_tokens')) return sendError(res, 404, 'not_found_error', `no route ${req.method} ${path}`);
  const given = requestToken(req) ?? '';
  if (given.length !== key.length || !timingSafeEqual(Buffer.from(given), Buffer.from(key))) return sendError(res, 401, 'authentication_error', 'invalid api key');
  if (path.endsWith('count_tokens')) return sendError(res, 404, 'not_found_error', 'the upstream speaks Chat Completions, which counts no tokens before a request');
  let body: Json;
  try {
    body = obj(await readJson(req, BODY_LIMIT)) ?? {};
  } catch (error) {
    return sendError(res, error instanceof HttpError ? error.status : 400, 'invalid_request_error', (error as Error).message);
  }
  const chat = messagesToChat(body, upstream.model);
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
      body: JSON.stringify(chat),
      signal: gone.signal,
    });
  } catch (error) {
    if (gone.signal.aborted) return;
    return sendError(res, 502, 'api_error', `the Chat Completions upstream ${upstream.baseUrl} could not be reached: ${(error as Error).message}`);
  }
  if (!answer.ok) return sendJson(res, answer.status, chatErrorToMessages(answer.status, await answer.text()));
  const streamed = (answer.headers.get('content-type') ?? '').includes('text/event-stream');
  if (body.stream !== true) {
    if (streamed) return sendError(res, 502, 'api_error', 'the Chat Completions upstream streamed an answer that was asked for whole');
    return sendJson(res, 200, chatToMessage(obj(await answer.json()) ?? {}, model));
  }
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  const events = new ChatStreamToMessages((event, data) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`), model);
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
      if (gone.signal.aborted) return;
      res.write(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message: `the upstream's stream broke: ${(error as Error).message}` } })}\n\n`);
      return void res.end();
    }
  }
  events.end();
  res.end();
}

/** Starts the face on 127.0.0.1 (a free port). */
export async function startMessagesFace(upstream: ChatUpstream): Promise<MessagesFace> {
  const key = `aar-compat-${randomBytes(16).toString('hex')}`;
  const server: Server = createServer((req, res) => {
    handle(upstream, key, req, res).catch((error: Error) => {
      if (res.headersSent) res.destroy(error);
      else sendError(res, 500, 'api_error', `AAR gateway translation failed: ${error.message}`);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  server.unref();
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    key,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
