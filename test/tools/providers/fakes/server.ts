import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a fake upstream received. */
export interface LoggedRequest {
  /** Which fake got it: `google-maps`, `wikipedia`, ... */
  server: string;
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json?: unknown;
  /** Date.now() when it arrived. */
  at: number;
}

/** A response: an object body is sent as JSON, a string as is. */
export interface FakeReply {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
}

export type FakeHandler = (req: LoggedRequest) => FakeReply | Promise<FakeReply>;

/** A local HTTP server on 127.0.0.1 (random port) answering like one upstream, with fault injection. */
export class FakeServer {
  url = '';
  inFlight = 0;
  maxInFlight = 0;
  /** Added to every reply's delay. */
  delayMs = 0;
  private readonly queued: FakeReply[] = [];
  private readonly server: Server;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    readonly name: string,
    private readonly handler: FakeHandler,
    readonly log: LoggedRequest[] = [],
  ) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const url = new URL(req.url ?? '/', 'http://fake');
        const body = Buffer.concat(chunks).toString('utf8');
        const entry: LoggedRequest = { server: this.name, method: req.method ?? 'GET', path: decodeURIComponent(url.pathname), query: Object.fromEntries(url.searchParams), headers: req.headers, body, at: Date.now() };
        try {
          entry.json = body ? JSON.parse(body) : undefined;
        } catch {
          /* not JSON */
        }
        this.log.push(entry);
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        // A request ends when answered or when the client gives up (closes the connection).
        let finished = false;
        const finish = () => {
          if (!finished) this.inFlight--;
          finished = true;
        };
        res.on('close', finish);
        let reply: FakeReply;
        try {
          reply = this.queued.shift() ?? (await this.handler(entry));
        } catch (err) {
          reply = { status: 500, body: { error: `fake ${this.name} crashed: ${(err as Error).message}` } };
        }
        const send = () => {
          finish();
          if (res.destroyed) return;
          const isText = typeof reply.body === 'string';
          const headers = { 'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json', ...reply.headers };
          res.writeHead(reply.status ?? 200, headers);
          res.end(reply.body === undefined ? '' : isText ? (reply.body as string) : JSON.stringify(reply.body));
        };
        const delay = (reply.delayMs ?? 0) + this.delayMs;
        if (delay <= 0) return send();
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          send();
        }, delay);
        this.timers.add(timer);
      });
    });
  }

  /** The next requests get these replies, in order, instead of the handler's. */
  enqueue(...replies: FakeReply[]): this {
    this.queued.push(...replies);
    return this;
  }

  /** Drops queued replies and delays and resets the in-flight high-water mark. */
  reset(): void {
    this.queued.length = 0;
    this.delayMs = 0;
    this.maxInFlight = 0;
  }

  requests(): LoggedRequest[] {
    return this.log.filter((r) => r.server === this.name);
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function startFakeServer(name: string, handler: FakeHandler, log?: LoggedRequest[]): Promise<FakeServer> {
  return new FakeServer(name, handler, log).start();
}

export const json = (body: unknown, status = 200): FakeReply => ({ status, body });
