import { existsSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { hostSecrets } from '../../common/secrets.js';
import { refusal, type ToolCallOutcome, type ToolService } from '../../tools/service.js';
import { HANDOVER_PATHS } from '../../trial/handover.js';
import { boundRefusalText, parseToolRequest } from './bounds.js';
import { HttpError, requestToken, sendJson } from './http.js';
import { modelApiOfPath } from './models/apis/registry.js';
import { sendModelError } from './models/routes.js';
import { Admission, leaveBodyUnread, readAdmittedBody, type LimitedRoute, type Refusal, type RouteLimits } from './request-limits.js';
import { appendToolLog, toolLogLine } from './tool-log.js';
import { TrialRegistry, type GatewayTrial } from './trials.js';

/** Reads the body of an admitted request within the trial's limits and at most `limitBytes` (request-limits.ts). */
export type BodyReader = (limitBytes: number) => Promise<Buffer>;

/**
 * Handles model traffic (`/<api id>/...`, e.g. `/anthropic/...`, `/openai/...`) for a trial; see the model
 * gateway. Through the server, `readBody` reads the body within the trial's limits; called alone, the
 * handler reads it itself.
 */
export type ModelHandler = (req: IncomingMessage, res: ServerResponse, trial: GatewayTrial, readBody?: BodyReader) => Promise<void>;

export interface GatewayOptions {
  tools: ToolService;
  models?: ModelHandler;
  /** Largest tool request body accepted (default REQUEST_LIMITS.tools.maxBodyBytes, 8 MiB). */
  bodyLimitBytes?: number;
  /** Per-trial limits by route (request-limits.ts; tests use small ones). */
  requestLimits?: Partial<Record<LimitedRoute, Partial<RouteLimits>>>;
}

const CallSchema = z.object({ tool: z.string().min(1), args: z.unknown().optional() });
const ReportSchema = z.object({ tool: z.string().min(1), args: z.unknown().optional(), ok: z.boolean(), text: z.string(), latency_ms: z.number().optional() });

/**
 * The host-side service trials talk to. Each trial gets a token; every call is executed here (the
 * container holds no API key) and logged to that trial's tool_log.jsonl on the host.
 */
export class GatewayServer {
  readonly trials: TrialRegistry;
  private readonly servers: Server[] = [];

  constructor(private readonly options: GatewayOptions) {
    const limits = options.requestLimits ?? {};
    this.trials = new TrialRegistry({ ...limits, tools: { ...limits.tools, ...(options.bodyLimitBytes === undefined ? {} : { maxBodyBytes: options.bodyLimitBytes }) } });
  }

  /** Listens on TCP (port 0 picks a free port); returns the address, e.g. http://127.0.0.1:40123. */
  async listenTcp(host = '127.0.0.1', port = 0): Promise<string> {
    const server = await this.start((s) => s.listen(port, host));
    const address = server.address() as AddressInfo;
    return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  }

  /** Listens on a Unix socket (mounted into containers, which then need no network). */
  async listenSocket(socketPath: string): Promise<string> {
    if (existsSync(socketPath)) rmSync(socketPath);
    await this.start((s) => s.listen(socketPath));
    return socketPath;
  }

  private start(listen: (s: Server) => void): Promise<Server> {
    const server = createServer((req, res) => void this.handle(req, res));
    server.keepAliveTimeout = 30_000;
    this.servers.push(server);
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.once('listening', () => resolve(server));
      listen(server);
    });
  }

  async close(): Promise<void> {
    await Promise.all(
      this.servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.close(() => resolve());
            s.closeAllConnections();
          }),
      ),
    );
    this.servers.length = 0;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    try {
      const url = req.url ?? '/';
      if (req.method === 'GET' && url === '/healthz') return sendJson(res, 200, { ok: true, mode: this.options.tools.mode });
      const trial = this.trials.lookup(requestToken(req));
      if (!trial) throw new HttpError(401, 'missing or unknown trial token');
      if (req.method === 'GET' && url === HANDOVER_PATHS.work) return trial.handover.serveWork(res);
      if (req.method === 'POST' && url === HANDOVER_PATHS.result) return await trial.handover.takeResult(req, res);
      const route = req.method === 'POST' && TOOL_ROUTES.has(url) ? 'tools' : this.options.models && modelApiOfPath(url) ? 'model' : undefined;
      if (!route) throw new HttpError(404, `no route ${req.method} ${url}`);
      // Admitted from the headers alone: a request over the trial's limits is refused before its body is read.
      const admitted = trial.requests[route].admit(req);
      if (!(admitted instanceof Admission)) return refuseUnread(req, res, route, admitted);
      res.once('close', () => admitted.release());
      const read: BodyReader = (limit) => readAdmittedBody(req, admitted, limit);
      if (route === 'model') return await this.options.models!(req, res, trial, read);
      return await (url === '/v1/tools/call' ? this.toolCall(req, res, trial, read) : this.toolReport(req, res, trial, read));
    } catch (error) {
      const status = error instanceof HttpError ? error.status : 500;
      if (!res.headersSent) sendJson(res, status, { error: { message: (error as Error).message } });
      else res.destroy();
    }
  }

  private async toolCall(req: IncomingMessage, res: ServerResponse, trial: GatewayTrial, read: BodyReader): Promise<void> {
    await this.withinLogBounds(req, res, trial, read, async (text) => {
      const request = parseToolRequest(text);
      if (!request.ok) return this.refuseOutOfBounds(res, trial, request.tool, request.reason);
      const body = CallSchema.safeParse(request.body);
      if (!body.success) throw new HttpError(400, 'expected {"tool": "<name>", "args": {...}}');
      const started = performance.now();
      const outcome = await this.options.tools.call(body.data.tool, body.data.args, trial.session, trial.taskId);
      return this.answer(res, trial, body.data.tool, body.data.args, outcome, performance.now() - started);
    });
  }

  private async toolReport(req: IncomingMessage, res: ServerResponse, trial: GatewayTrial, read: BodyReader): Promise<void> {
    await this.withinLogBounds(req, res, trial, read, (text) => {
      const request = parseToolRequest(text);
      if (!request.ok) return this.refuseOutOfBounds(res, trial, request.tool, request.reason);
      const body = ReportSchema.safeParse(request.body);
      if (!body.success) throw new HttpError(400, 'expected {"tool", "args", "ok", "text"}');
      const outcome = this.options.tools.report(body.data.tool, { ok: body.data.ok, text: body.data.text });
      return this.answer(res, trial, body.data.tool, body.data.args, outcome, body.data.latency_ms ?? 0);
    });
  }

  /**
   * Runs a tool request within the trial's log bounds (bounds.ts): past them the call is refused before its
   * body is even parsed, logged once (the first such call) and only counted after that.
   */
  private async withinLogBounds(req: IncomingMessage, res: ServerResponse, trial: GatewayTrial, read: BodyReader, handle: (text: string) => number | Promise<number>): Promise<void> {
    const room = trial.toolLog.reserve();
    if (!room.ok) {
      leaveBodyUnread(req, res);
      const tool = '';
      const outcome = refusal(tool, `the call was refused: ${boundRefusalText(room.reached, trial.toolLog)}`);
      if (room.logIt) trial.toolLog.commit(this.answer(res, trial, tool, {}, outcome, 0));
      else {
        trial.toolCalls++;
        sendJson(res, 200, { ok: false, tool, text: outcome.text, truncated: false });
      }
      return;
    }
    let lineBytes: number | undefined;
    try {
      lineBytes = await handle((await read(trial.requests.tools.limits.maxBodyBytes)).toString('utf8'));
    } finally {
      // A request that ended without a logged answer (a bad request, a failed write) frees its room.
      if (lineBytes === undefined) trial.toolLog.release();
      else trial.toolLog.commit(lineBytes);
    }
  }

  /** Arguments too deep or too large: a tool error, logged as a refused call without the arguments. */
  private refuseOutOfBounds(res: ServerResponse, trial: GatewayTrial, tool: string, reason: string): number {
    return this.answer(res, trial, tool, {}, refusal(tool, `${tool || 'the call'} was refused: ${reason}`), 0);
  }

  /** Logs the call and answers it, every secret masked in both; returns the bytes logged. */
  private answer(res: ServerResponse, trial: GatewayTrial, calledAs: string, args: unknown, outcome: ToolCallOutcome, latencyMs: number): number {
    // A call that was still running when its trial ended: the trial's folder is being sealed, so nothing is appended.
    if (trial.closed) {
      sendJson(res, 410, { ok: false, error: 'the trial is over' });
      return 0;
    }
    trial.toolCalls++;
    const bytes = appendToolLog(trial.toolLogPath, toolLogLine(calledAs, args, outcome, latencyMs));
    sendJson(res, 200, { ok: outcome.ok, tool: hostSecrets.text(outcome.tool), text: hostSecrets.text(outcome.text), truncated: outcome.truncated });
    return bytes;
  }
}

const TOOL_ROUTES = new Set(['/v1/tools/call', '/v1/tools/report']);

/**
 * Refuses a request over its trial's limits without reading its body: 413 or 429 (with Retry-After) in the
 * route's error shape (the provider's for model routes, which clients retry on 429).
 */
function refuseUnread(req: IncomingMessage, res: ServerResponse, route: LimitedRoute, refusal: Refusal): void {
  leaveBodyUnread(req, res);
  if (refusal.status === 429) res.setHeader('retry-after', '1');
  const message = `AAR gateway: ${refusal.message}`;
  const provider = route === 'model' ? modelApiOfPath(req.url ?? '/') : undefined;
  if (provider) sendModelError(res, provider.id, refusal.status, refusal.status === 429 ? 'rate_limit_error' : 'invalid_request_error', message, `aar_${refusal.reason}`);
  else sendJson(res, refusal.status, { error: { message } });
}
