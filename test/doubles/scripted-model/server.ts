import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicEvents, anthropicJson, anthropicShellTool, anthropicTurnIndex, type SseEvent } from './anthropic.js';
import { chatEvents, chatJson, chatShellTool, chatTurnIndex } from './chat.js';
import { responsesEvents, responsesJson, responsesShellTool, responsesTurnIndex } from './responses.js';
import { planReply, type PlannedReply, type ScriptTurn } from './script.js';

/** A request the scripted model received, secrets removed. */
export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. /v1/messages?beta=true. */
  path: string;
  /** Lower-case headers without authorization / x-api-key. */
  headers: Record<string, string>;
  /** The credential it carried: which header, and the first 16 hex digits of the key's sha256. */
  credential?: { header: 'x-api-key' | 'authorization'; sha256: string };
  body: unknown;
  /** The turn index the request was answered as (model requests only). */
  turn?: number;
}

export interface ServedUsage {
  turns: number;
  /** All prompt tokens reported, cached ones included (as the gateway counts them). */
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
}

export interface ScriptedModelServerOptions {
  script: readonly ScriptTurn[];
  /** When set, requests carrying another key get the protocol's 401. */
  requireKey?: string;
  /** Model name reported when a request names none. */
  defaultModel?: string;
  /** How a request's turn is found: `conversation` (default) counts the assistant turns it carries; `sequence` numbers the model requests served. */
  turns?: 'conversation' | 'sequence';
  /** A turn computed from the request (its body and turn index), taking the script's place when it returns one. */
  respond?: (body: Json, turn: number) => ScriptTurn | undefined;
  /** Milliseconds each model call waits before its answer (a model's thinking time, for load benchmarks). */
  delayMs?: number;
}

export interface ScriptedModelServer {
  url: string;
  /** For ANTHROPIC_BASE_URL (no /v1). */
  anthropicBaseUrl: string;
  /** For OpenAI clients' base URL (with /v1). */
  openaiBaseUrl: string;
  requests: RecordedRequest[];
  served: ServedUsage;
  stop(): Promise<void>;
}

/** sha256 prefix of a key, to compare with what a request carried without storing the key. */
export const keyFingerprint = (key: string): string => createHash('sha256').update(key).digest('hex').slice(0, 16);

function credentialOf(req: IncomingMessage): RecordedRequest['credential'] {
  const key = req.headers['x-api-key'];
  if (typeof key === 'string') return { header: 'x-api-key', sha256: keyFingerprint(key) };
  const auth = req.headers.authorization;
  if (auth) return { header: 'authorization', sha256: keyFingerprint(auth.replace(/^Bearer\s+/i, '')) };
  return undefined;
}

function writeJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

function writeSse(res: ServerResponse, events: SseEvent[]): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  for (const e of events) res.write(`${e.event ? `event: ${e.event}\n` : ''}data: ${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n\n`);
  res.end();
}

type Json = Record<string, unknown>;
type Protocol = 'anthropic' | 'responses' | 'chat';
const PATHS: Record<string, Protocol | 'count_tokens'> = {
  '/v1/messages': 'anthropic',
  '/v1/messages/count_tokens': 'count_tokens',
  '/v1/responses': 'responses',
  '/v1/chat/completions': 'chat',
};

const errorFor = (protocol: Protocol | 'count_tokens' | undefined, type: string, message: string): Json =>
  protocol === 'anthropic' || protocol === 'count_tokens' ? { type: 'error', error: { type, message } } : { error: { message, type, code: null, param: null } };

/**
 * A model server on 127.0.0.1 that answers Anthropic Messages, OpenAI Responses and Chat Completions
 * (streaming or not) from a script. Stateless per conversation: the turn is the number of assistant turns
 * already in the request, so any number of conversations can run against one server.
 */
export async function startScriptedModelServer(options: ScriptedModelServerOptions): Promise<ScriptedModelServer> {
  const requests: RecordedRequest[] = [];
  const served: ServedUsage = { turns: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0 };

  // A stateless client (one prompt per call, as the llm agent) has no assistant turns to count: number its calls.
  const turnOf = (inConversation: number): number => (options.turns === 'sequence' ? served.turns : inConversation);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // recorded as text
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (name !== 'authorization' && name !== 'x-api-key' && value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const record: RecordedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers, credential: credentialOf(req), body };
    requests.push(record);

    const protocol = PATHS[(req.url ?? '/').split('?')[0]];
    if (!protocol || req.method !== 'POST') return writeJson(res, 404, errorFor(protocol, 'not_found_error', `no route ${req.method} ${req.url}`));
    if (options.requireKey && record.credential?.sha256 !== keyFingerprint(options.requireKey)) {
      return writeJson(res, 401, errorFor(protocol, 'authentication_error', 'invalid x-api-key / bearer token'));
    }
    if (!body || typeof body !== 'object') return writeJson(res, 400, errorFor(protocol, 'invalid_request_error', 'the body is not JSON'));
    const json = body as Json;
    if (protocol === 'count_tokens') return writeJson(res, 200, { input_tokens: Math.ceil(raw.length / 4) });

    if (options.delayMs) await new Promise((resolve) => setTimeout(resolve, options.delayMs));
    const model = typeof json.model === 'string' ? json.model : (options.defaultModel ?? 'scripted-model');
    const stream = json.stream === true;
    let reply: PlannedReply;
    const plan = (turn: number, shell: Parameters<typeof planReply>[2]): PlannedReply => {
      const computed = options.respond?.(json, turn);
      return computed ? { ...planReply([computed], 0, shell), index: turn } : planReply(options.script, turn, shell);
    };
    if (protocol === 'anthropic') {
      reply = plan(turnOf(anthropicTurnIndex(json)), anthropicShellTool(json));
      if (stream) writeSse(res, anthropicEvents(reply, model));
      else writeJson(res, 200, anthropicJson(reply, model));
    } else if (protocol === 'responses') {
      reply = plan(turnOf(responsesTurnIndex(json)), responsesShellTool(json));
      if (stream) writeSse(res, responsesEvents(reply, model));
      else writeJson(res, 200, responsesJson(reply, model));
    } else {
      const shell = chatShellTool(json);
      reply = plan(turnOf(chatTurnIndex(json)), shell);
      const includeUsage = (json.stream_options as Json | undefined)?.include_usage === true;
      if (stream) writeSse(res, chatEvents(reply, shell, model, includeUsage));
      else writeJson(res, 200, chatJson(reply, shell, model));
    }
    record.turn = reply.index;
    served.turns++;
    served.inputTokens += reply.usage.input;
    served.outputTokens += reply.usage.output;
    served.cachedTokens += reply.usage.cached;
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) writeJson(res, 500, { error: { message: (error as Error).message } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    requests,
    served,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
