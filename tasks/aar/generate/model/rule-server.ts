import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../../../../common/loopback.js';
import { scriptedRespond } from './scripted.js';

/**
 * The scripted model of `model.provider: scripted`: a model server on loopback that answers every prompt
 * by the rule form of its step (scripted.ts), in the Anthropic Messages or OpenAI Chat Completions shape,
 * whole (the generator never streams). The model gateway uses it as its upstream, so the offline example
 * runs every model path (requests, the model log, usage, parsing, gates) with no key and no test code.
 */

export interface RuleModelServer {
  /** http://127.0.0.1:<port>: the Anthropic base URL; with /v1, the OpenAI one. */
  url: string;
  /** The key requests must carry (x-api-key or Bearer). */
  key: string;
  stop(): Promise<void>;
}

type Body = Record<string, unknown>;
const BODY_LIMIT = 16 * 1024 * 1024;

function reply(api: 'anthropic' | 'chat', body: Body): Body {
  const { text, usage } = scriptedRespond(body);
  const model = String(body.model ?? 'scripted');
  if (api === 'anthropic') {
    return { id: `msg_${randomUUID().replace(/-/g, '')}`, type: 'message', role: 'assistant', model, content: [{ type: 'text', text }], stop_reason: 'end_turn', stop_sequence: null, usage: { input_tokens: usage.input, output_tokens: usage.output } };
  }
  return {
    id: `chatcmpl-${randomUUID().replace(/-/g, '')}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function handle(key: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const route = (req.url ?? '').split('?')[0];
  const api = route === '/v1/messages' ? 'anthropic' : route === '/v1/chat/completions' ? 'chat' : undefined;
  if (!api || req.method !== 'POST') return send(res, 404, { error: { type: 'not_found_error', message: `no route ${req.method} ${req.url}` } });
  const given = (req.headers['x-api-key'] as string | undefined) ?? req.headers.authorization?.replace(/^Bearer\s+/i, '');
  if (given !== key) return send(res, 401, { error: { type: 'authentication_error', message: 'invalid api key' } });
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) return send(res, 413, { error: { type: 'invalid_request_error', message: 'the request body is too large' } });
    chunks.push(chunk as Buffer);
  }
  let body: Body;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
  } catch {
    return send(res, 400, { error: { type: 'invalid_request_error', message: 'the request body is not JSON' } });
  }
  if (body.stream === true) return send(res, 400, { error: { type: 'invalid_request_error', message: 'the scripted model answers whole replies only (stream: false)' } });
  send(res, 200, reply(api, body));
}

export async function startRuleModelServer(): Promise<RuleModelServer> {
  const key = `aar-scripted-${randomBytes(12).toString('hex')}`;
  const server = createServer((req, res) => {
    handle(key, req, res).catch((error: Error) => (res.headersSent ? res.destroy(error) : send(res, 500, { error: { type: 'api_error', message: error.message } })));
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, key, stop: close };
}
