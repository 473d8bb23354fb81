import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpError, readJson, sendJson } from '../http.js';
import { ContextLengthError, LocalModel, type LocalModelOptions } from './engine.js';
import { API_SHAPES } from './replies.js';
import { readLocalRequest, type LocalApi } from './requests.js';

/**
 * The local model's own HTTP face on loopback: Anthropic Messages (`/v1/messages`, `count_tokens`),
 * OpenAI Chat Completions and Responses, streaming or not, as a provider would answer them. The gateway
 * uses it as the upstream of `models: {provider: local}`, so budgets, usage and the model log work as for
 * any provider; any OpenAI- or Anthropic-speaking client can use it too. Requests carry its key.
 */

export interface ServedCounts {
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

export interface LocalModelServer {
  /** http://127.0.0.1:<port> */
  url: string;
  /** The base URL per model API id (harness/gateway/models/apis/) this face speaks: `anthropic` (no /v1), `openai` (with /v1). */
  baseUrls: Readonly<Record<string, string>>;
  /** The key requests must carry (x-api-key or Bearer). */
  key: string;
  model: LocalModel;
  /** What was generated and answered whole, summed over requests. */
  served: ServedCounts;
  close(): Promise<void>;
}

const ROUTES: Record<string, LocalApi | 'count_tokens'> = {
  '/v1/messages': 'anthropic',
  '/v1/messages/count_tokens': 'count_tokens',
  '/v1/chat/completions': 'chat',
  '/v1/responses': 'responses',
};

const BODY_LIMIT = 64 * 1024 * 1024;

function authorized(req: IncomingMessage, key: string): boolean {
  const given = (req.headers['x-api-key'] as string | undefined) ?? req.headers.authorization?.replace(/^Bearer\s+/i, '') ?? '';
  return given.length === key.length && timingSafeEqual(Buffer.from(given), Buffer.from(key));
}

async function handle(model: LocalModel, key: string, served: ServedCounts, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const route = ROUTES[(req.url ?? '/').split('?')[0].replace(/\/+$/, '')];
  const anthropicStyle = (req.url ?? '').startsWith('/v1/messages');
  const fail = (status: number, type: string, message: string, code?: string) =>
    sendJson(res, status, anthropicStyle ? { type: 'error', error: { type, message } } : { error: { message, type, param: null, code: code ?? null } });
  if (req.method === 'GET' && req.url?.startsWith('/v1/models')) return sendJson(res, 200, { object: 'list', data: [{ id: model.name, object: 'model', owned_by: 'local' }] });
  if (!route || req.method !== 'POST') return fail(404, 'not_found_error', `no route ${req.method} ${req.url}`);
  if (!authorized(req, key)) return fail(401, 'authentication_error', 'invalid api key', 'invalid_api_key');
  let body: Record<string, unknown>;
  try {
    const json = await readJson(req, BODY_LIMIT);
    if (!json || typeof json !== 'object' || Array.isArray(json)) throw new HttpError(400, 'the request body is not a JSON object');
    body = json as Record<string, unknown>;
  } catch (error) {
    return fail(error instanceof HttpError ? error.status : 400, 'invalid_request_error', (error as Error).message);
  }
  if (route === 'count_tokens') return sendJson(res, 200, { input_tokens: model.countPrompt(readLocalRequest('anthropic', body)) });

  const shape = API_SHAPES[route];
  const request = readLocalRequest(route, body);
  // The served model's own name: the job's price table prices it (at 0), whatever name the agent asked for.
  const name = model.name;
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort();
  });
  const send = (event: string | undefined, data: unknown) => res.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
  const includeUsage = (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;
  const stream = request.stream ? shape.stream(send, name, includeUsage) : undefined;
  try {
    const reply = await model.generate(request, {
      signal: gone.signal,
      onStart: (tokens) => {
        if (!stream) return;
        res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
        stream.start(tokens);
      },
      onText: stream ? (delta) => delta && stream.text(delta) : undefined,
    });
    if (gone.signal.aborted) return;
    if (stream) {
      stream.end(reply);
      res.end();
    } else sendJson(res, 200, shape.json(reply, name));
    served.requests++;
    served.inputTokens += reply.inputTokens;
    served.outputTokens += reply.outputTokens;
  } catch (error) {
    if (res.headersSent) return void res.destroy(error as Error);
    if (error instanceof ContextLengthError) return sendJson(res, 400, shape.contextError(error.promptTokens, error.contextSize));
    fail(500, anthropicStyle ? 'api_error' : 'server_error', `the local model failed: ${(error as Error).message}`);
  }
}

/** Loads the model and serves it on 127.0.0.1 (a free port). */
export async function startLocalModelServer(options: LocalModelOptions): Promise<LocalModelServer> {
  const model = await LocalModel.load(options);
  const key = `aar-local-${randomBytes(16).toString('hex')}`;
  const served: ServedCounts = { requests: 0, inputTokens: 0, outputTokens: 0 };
  const server: Server = createServer((req, res) => void handle(model, key, served, req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  // Neither the listener nor the loaded model keeps the process alive once the job is done.
  server.unref();
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    baseUrls: { anthropic: url, openai: `${url}/v1` },
    key,
    model,
    served,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await model.dispose();
    },
  };
}
