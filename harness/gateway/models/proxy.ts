import type { IncomingMessage, ServerResponse } from 'node:http';
import { hostSecrets } from '../../../common/secrets.js';
import { LOGGED_NAME_MAX_CHARS } from '../../../trial/tool-log.js';
import type { ModelLogLineKind } from '../bounds.js';
import { HttpError, readBody } from '../http.js';
import { leaveBodyUnread, REQUEST_LIMITS } from '../request-limits.js';
import type { BodyReader, ModelHandler } from '../server.js';
import { cutForLog } from '../tool-log.js';
import type { GatewayTrial } from '../trials.js';
import { budgetRefusal, sendBudgetError } from './budget.js';
import { upstreamHeaders } from './headers.js';
import { ConversationLog, type Exchange } from './conversation.js';
import { appendModelLog, type ModelLogEntry } from './model-log.js';
import { findPrice, loadPriceTable, requestCost, type PriceTable } from './prices.js';
import { relayAnswer, type RelayOutcome } from './relay.js';
import { factsFromJson } from './usage.js';
import { BUILT_IN_PRICES, MODEL_APIS, modelApi, modelApiOfPath } from './apis/registry.js';
import { resolveRoute, sendModelError, type ModelRoute, type UpstreamBases } from './routes.js';
import type { RequestTokens } from './tokens.js';
import { DEFAULT_RETRY, sendUpstream, type RetryPolicy, type UpstreamAnswer, type UpstreamFailure } from './upstream.js';

/**
 * Per model API (apis/registry.ts) by its id: `<id>BaseUrl` (default the API's own, e.g. anthropicBaseUrl
 * https://api.anthropic.com without /v1, openaiBaseUrl https://api.openai.com/v1 with it) and `<id>ApiKey`
 * (default its key variable of the host, e.g. ANTHROPIC_API_KEY, read once here; '' means none).
 */
export interface ModelHandlerOptions {
  [baseUrl: `${string}BaseUrl`]: string | undefined;
  [apiKey: `${string}ApiKey`]: string | undefined;
  /** A price table, or the path of one (YAML); default the built-in one (every model API's prices.ts, apis/registry.ts). */
  prices?: PriceTable | string;
  /** Attempts per request on 408, 429, 5xx, network errors and timeouts (default 4). */
  maxAttempts?: number;
  /** Per attempt until the first byte, then the longest silence mid-response (default 300 s). */
  timeoutMs?: number;
  /** Backoff tuning (tests use small values). */
  backoff?: Partial<Pick<RetryPolicy, 'backoffBaseMs' | 'backoffMaxMs' | 'retryAfterMaxMs'>>;
  /** Largest request body accepted (default REQUEST_LIMITS.model.maxBodyBytes, 32 MiB; through the server, the trial's limits apply too). */
  bodyLimitBytes?: number;
  /** Keep each request and its answer in the model log (default true; the job's `models.record_conversation`). */
  recordConversation?: boolean;
  /** The per-trial cap of the model log's conversation (default MODEL_LOG_MAX_BYTES; tests use small values). */
  modelLogMaxBytes?: number;
}

interface Context {
  bases: UpstreamBases;
  keys: Readonly<Record<string, string>>;
  prices: PriceTable;
  policy: RetryPolicy;
  bodyLimit: number;
  record: boolean;
  modelLogMaxBytes?: number;
  /** Each trial's model log as written so far (its bytes against the cap, the tool sets it holds). */
  logs: WeakMap<GatewayTrial, ConversationLog>;
}

/**
 * The model gateway: proxies a trial's model traffic to the real APIs with the host's key, counts its
 * turns, tokens and cost, holds it to its budget, retries upstream failures and logs every request to the
 * trial's model_log.jsonl.
 */
export function createModelHandler(options: ModelHandlerOptions = {}): ModelHandler {
  const keys = Object.fromEntries(MODEL_APIS.map((m) => [m.id, (options[`${m.id}ApiKey`] ?? process.env[m.keyVariable] ?? '').trim()]));
  hostSecrets.add(...Object.values(keys));
  const ctx: Context = {
    bases: Object.fromEntries(MODEL_APIS.map((m) => [m.id, options[`${m.id}BaseUrl`] ?? m.defaultBaseUrl])),
    keys,
    prices: typeof options.prices === 'object' ? options.prices : options.prices === undefined ? BUILT_IN_PRICES : loadPriceTable(options.prices),
    policy: { ...DEFAULT_RETRY, ...options.backoff, maxAttempts: options.maxAttempts ?? 4, timeoutMs: options.timeoutMs ?? 300_000 },
    bodyLimit: options.bodyLimitBytes ?? REQUEST_LIMITS.model.maxBodyBytes,
    record: options.recordConversation ?? true,
    modelLogMaxBytes: options.modelLogMaxBytes,
    logs: new WeakMap(),
  };
  return (req, res, trial, readAdmitted) => handleModelRequest(ctx, req, res, trial, readAdmitted);
}

type JsonObject = Record<string, unknown>;

async function readRequest(req: IncomingMessage, limit: number, readAdmitted?: BodyReader): Promise<{ raw: Buffer; json: JsonObject } | { error: string; status: number }> {
  let raw: Buffer;
  try {
    raw = readAdmitted ? await readAdmitted(limit) : await readBody(req, limit);
  } catch (e) {
    return { error: (e as Error).message, status: e instanceof HttpError ? e.status : 400 };
  }
  try {
    const json = JSON.parse(raw.toString('utf8')) as unknown;
    if (json && typeof json === 'object' && !Array.isArray(json)) return { raw, json: json as JsonObject };
  } catch {
    // answered below
  }
  return { error: 'the request body is not a JSON object', status: 400 };
}

/** A model name as logged: a name from the agent or the upstream, cut (a real one is far shorter). */
const loggedModel = (model: string | null): string | null => (model === null ? null : cutForLog(model, LOGGED_NAME_MAX_CHARS));

type LogFields = Partial<ModelLogEntry> & Pick<ModelLogEntry, 'status'>;

/** One request as the model log sees it while it is handled: what the agent asked for, the retries, the exchange kept. */
interface RequestState {
  route: ModelRoute;
  started: number;
  model: string | null;
  stream: boolean;
  retries: NonNullable<ModelLogEntry['retries']>;
  exchange?: Exchange;
}

/**
 * Writes the request's line in the trial's model log. A reply that arrives after its trial ended is not
 * written: the trial's folder is being sealed. Of the requests that are not turns, only the first ones are
 * written (bounds.ts ModelLogBudget).
 */
function logRequest(ctx: Context, trial: GatewayTrial, request: RequestState, kind: ModelLogLineKind, { status, ...fields }: LogFields): void {
  if (trial.closed || !trial.modelLogPath || !trial.modelLog.take(kind)) return;
  const conversation = ctx.logs.get(trial) ?? ctx.logs.set(trial, new ConversationLog(ctx.modelLogMaxBytes)).get(trial)!;
  const written: ModelLogEntry = {
    ts: Date.now() / 1000,
    api: request.route.api,
    model: request.model,
    stream: request.stream,
    status,
    turn: null,
    input_tokens: null,
    output_tokens: null,
    cached_tokens: null,
    cache_write_tokens: null,
    cost_usd: null,
    latency_ms: Math.round((performance.now() - request.started) * 10) / 10,
    attempts: 0,
    ...fields,
    ...(request.retries.length ? { retries: request.retries } : {}),
  };
  written.model = loggedModel(written.model);
  appendModelLog(trial.modelLogPath, conversation.line(written, request.exchange));
}

async function handleModelRequest(ctx: Context, req: IncomingMessage, res: ServerResponse, trial: GatewayTrial, readAdmitted?: BodyReader): Promise<void> {
  const started = performance.now();
  const route = resolveRoute(req.method, req.url ?? '/', ctx.bases);
  if (!route) {
    // The server sends only `/<id>/` paths of a registered API here; another path gets the last API's shape.
    return sendModelError(res, (modelApiOfPath(req.url ?? '/') ?? MODEL_APIS.at(-1)!).id, 404, 'not_found_error', `the AAR gateway has no model route ${req.method} ${(req.url ?? '/').split('?')[0]}`);
  }
  const request: RequestState = { route, started, model: null, stream: false, retries: [] };
  const log = (kind: ModelLogLineKind, fields: LogFields): void => logRequest(ctx, trial, request, kind, fields);

  // The budget is checked from the route alone: a refused request's body is never read.
  if (route.counted) {
    const refusal = budgetRefusal(trial);
    if (refusal) {
      trial.usage.budgetExceeded = true;
      leaveBodyUnread(req, res);
      sendBudgetError(res, route.provider, refusal);
      return log('budget_exceeded', { status: 400, error: refusal, budget_exceeded: true });
    }
    trial.turnsReading++;
  }
  let body: Awaited<ReturnType<typeof readRequest>>;
  try {
    body = await readRequest(req, ctx.bodyLimit, readAdmitted);
  } finally {
    if (route.counted) trial.turnsReading--;
  }
  if ('json' in body) {
    request.model = typeof body.json.model === 'string' ? body.json.model : null;
    request.stream = body.json.stream === true;
    if (ctx.record) request.exchange = { request: body.json };
  }
  if ('error' in body) {
    sendModelError(res, route.provider, body.status, 'invalid_request_error', body.error);
    return log('invalid_request', { status: body.status, error: body.error });
  }
  const turn = route.counted ? ++trial.usage.turns : null;
  const kind: ModelLogLineKind = turn === null ? 'not_a_turn' : 'turn';
  const api = modelApi(route.provider);
  const key = ctx.keys[route.provider];
  if (!key) {
    trial.usage.upstreamFailures++;
    const message = `the AAR model gateway has no ${api.keyVariable}: set it in the environment of the host running aar`;
    sendModelError(res, route.provider, 401, 'authentication_error', message, 'aar_no_api_key');
    return log(kind, { status: 401, turn, error: message });
  }

  const clientGone = abortOnClientGone(res);
  const upstreamRequest = { url: route.upstreamUrl, headers: upstreamHeaders(req.headers, route.provider, key), body: api.upstreamBody?.(route.api, body.raw, body.json) ?? body.raw };
  const answer = await sendUpstream(upstreamRequest, ctx.policy, clientGone.signal, (attempt, reason, delayMs) => {
    trial.usage.upstreamRetries++;
    request.retries.push({ attempt, reason, delay_ms: Math.round(delayMs) });
  });
  if (!answer.ok) return log(kind, { turn, ...passOnFailure(res, trial, request, answer) });
  const relayed = await relayAnswer(answer, res, route.api, ctx.policy.timeoutMs, clientGone.signal, request.exchange !== undefined);
  if (request.exchange) request.exchange.response = relayed.facts.response;
  log(kind, { turn, ...countAnswer(ctx, trial, request, answer, relayed) });
}

/** Aborted when the client goes away before its answer is finished. */
function abortOnClientGone(res: ServerResponse): AbortController {
  const clientGone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) clientGone.abort();
  });
  return clientGone;
}

/** Every upstream attempt failed: the upstream's error passed on to the agent (host secrets masked), or the gateway's own; its log fields. */
function passOnFailure(res: ServerResponse, trial: GatewayTrial, request: RequestState, answer: UpstreamFailure): LogFields {
  const { route } = request;
  const error = `${answer.error} (after ${answer.attempts} attempt${answer.attempts === 1 ? '' : 's'})`;
  if (answer.clientGone) return { status: 0, attempts: answer.attempts, error };
  trial.usage.upstreamFailures++;
  if (answer.status && answer.body) {
    if (request.exchange) request.exchange.response = bodyForLog(answer.body);
    // An error page may echo the request, the host's key with it.
    const body = hostSecrets.bytes(answer.body);
    res.writeHead(answer.status, { 'content-type': hostSecrets.text(answer.headers?.get('content-type') ?? 'application/json'), 'content-length': body.length });
    res.end(body);
  } else {
    sendModelError(res, route.provider, 502, modelApi(route.provider).unreachableType, `AAR model gateway: ${error}`, 'aar_upstream_unreachable');
  }
  noteModelError(trial, answer.status ?? 502, (answer.body && factsFromJson(route.api, bodyForLog(answer.body)).errorMessage) || error);
  return { status: answer.status ?? 502, attempts: answer.attempts, error };
}

/** A relayed answer counted in the trial's usage (tokens, cost by the price table, answered turns, failures); its log fields. */
function countAnswer(ctx: Context, trial: GatewayTrial, request: RequestState, answer: UpstreamAnswer, relayed: RelayOutcome): LogFields {
  const { route, model: requestModel } = request;
  const success = answer.status >= 200 && answer.status < 300;
  const { tokens, model, streamError } = relayed.facts;
  const usedModel = model ?? requestModel;
  let cost: number | null = null;
  let note: string | undefined;
  if (route.counted && success && tokens) {
    const price = findPrice(ctx.prices, usedModel ?? undefined) ?? findPrice(ctx.prices, requestModel ?? undefined);
    if (price) cost = requestCost(price.price, tokens);
    else note = `no price for model ${loggedModel(usedModel) ?? '(none)'} in the price table: cost unknown`;
    addTokens(trial, tokens, cost);
  }
  if (route.counted && success && relayed.complete && !streamError) trial.usage.answered++;
  if ((!relayed.complete && !relayed.clientGone) || (relayed.complete && streamError)) trial.usage.upstreamFailures++;
  const error = relayed.error ?? streamError ?? (success ? undefined : `upstream answered ${answer.status}`);
  if (error && !relayed.clientGone) noteModelError(trial, relayed.complete ? answer.status : 0, relayed.facts.errorMessage ?? error);
  return {
    model: usedModel,
    status: relayed.complete || relayed.clientGone ? answer.status : 0,
    input_tokens: tokens?.input ?? null,
    output_tokens: tokens?.output ?? null,
    cached_tokens: tokens?.cached ?? null,
    cache_write_tokens: tokens?.cacheWrite ?? null,
    cost_usd: cost,
    attempts: answer.attempts,
    ...(error ? { error } : {}),
    ...(note ? { note } : {}),
  };
}

/** Counts a model call that ended in an error, keeping the API's message of the last one (trial.json's `model_errors`). */
function noteModelError(trial: GatewayTrial, status: number, message: string): void {
  trial.usage.modelErrors = { calls: (trial.usage.modelErrors?.calls ?? 0) + 1, last_status: status, last_message: message.slice(0, 1000) };
}

/** An upstream error body as logged: its JSON, else its text. */
function bodyForLog(body: Buffer): unknown {
  const text = body.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function addTokens(trial: GatewayTrial, tokens: RequestTokens, cost: number | null): void {
  trial.usage.inputTokens += tokens.input;
  trial.usage.outputTokens += tokens.output;
  trial.usage.cachedTokens += tokens.cached;
  if (cost !== null) trial.usage.costUsd += cost;
}
