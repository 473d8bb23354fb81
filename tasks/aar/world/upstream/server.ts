import { appendFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Endpoints } from '../../../../tools/providers/types.js';
import { openMeteo, restCountries } from './data-apis.js';
import { binance, yahooFinance } from './markets.js';
import type { UpstreamFacts } from './facts.js';
import { googleMaps } from './google.js';
import type { StandInReply, StandInRequest } from './reply.js';
import { mediaWikiApi, openAiChat, plainWeb, serper, wikipediaPages } from './web.js';

/**
 * The stand-in upstream: every service the AAR tools call, on one loopback port, each below a prefix of its
 * own, answering from a world's facts (facts.ts). Point a job's `tools.endpoints` at `endpoints` and its
 * tools answer each leg's golden chains with the golden values, with no network; change facts (applyDrift)
 * and they answer as a world that moved. Every request is counted (and, with a log file, written there).
 */

/** Prefix to the upstream it stands in for. */
const PREFIXES = ['google', 'serper', 'open-meteo-archive', 'open-meteo-forecast', 'restcountries', 'yahoo', 'binance-us', 'binance', 'openai', 'wikipedia', 'wiki-html', 'web'] as const;
export type StandInUpstreamName = (typeof PREFIXES)[number];

/**
 * The real hosts and the stand-in path each of their URLs maps to: a client that cannot be given base URLs
 * (the AAR authors' tool servers, yfinance) has its requests rewritten with these (`{lang}` and `{path}` are
 * the parts kept).
 */
export const HOST_ROUTES: { host: string; to: string }[] = [
  { host: 'maps.googleapis.com', to: '/google{path}' },
  { host: 'google.serper.dev', to: '/serper{path}' },
  { host: 'archive-api.open-meteo.com', to: '/open-meteo-archive{path}' },
  { host: 'api.open-meteo.com', to: '/open-meteo-forecast{path}' },
  { host: 'restcountries.com', to: '/restcountries{path}' },
  { host: 'query1.finance.yahoo.com', to: '/yahoo{path}' },
  { host: 'query2.finance.yahoo.com', to: '/yahoo{path}' },
  { host: 'fc.yahoo.com', to: '/yahoo/fc' },
  { host: 'api.binance.us', to: '/binance-us{path}' },
  { host: 'api.binance.com', to: '/binance{path}' },
  { host: 'api.openai.com', to: '/openai{path}' },
  { host: '{lang}.wikipedia.org', to: '/wiki-html/{lang}{path}' },
];

export interface LoggedUpstreamRequest {
  upstream: StandInUpstreamName;
  method: string;
  /** The path below the prefix, with its query. */
  url: string;
  at: string;
}

export class StandInUpstream {
  url = '';
  /** Every request, in arrival order. */
  readonly requests: LoggedUpstreamRequest[] = [];
  private readonly server: Server;
  private readonly handlers: Record<StandInUpstreamName, (req: StandInRequest) => StandInReply>;

  constructor(
    readonly facts: UpstreamFacts,
    private readonly options: { logFile?: string } = {},
  ) {
    this.handlers = {
      google: (req) => googleMaps(facts)({ ...req, path: req.path.replace(/^\/maps\/api/, '') }),
      serper: serper(facts),
      'open-meteo-archive': openMeteo(facts, 'archive'),
      'open-meteo-forecast': openMeteo(facts, 'forecast'),
      restcountries: restCountries(facts),
      yahoo: yahooFinance(facts),
      'binance-us': binance(facts, 'us'),
      binance: binance(facts, 'com'),
      openai: openAiChat(),
      wikipedia: mediaWikiApi(facts),
      'wiki-html': wikipediaPages(facts),
      web: plainWeb(),
    };
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://stand-in');
        const prefix = /^\/([^/]+)(\/.*)?$/.exec(url.pathname);
        const upstream = PREFIXES.find((p) => p === prefix?.[1]);
        const send = (reply: StandInReply) => {
          const text = typeof reply.body === 'string';
          res.writeHead(reply.status ?? 200, { 'content-type': text ? 'text/plain; charset=utf-8' : 'application/json; charset=utf-8', ...reply.headers });
          res.end(reply.body === undefined ? '' : text ? (reply.body as string) : JSON.stringify(reply.body));
        };
        if (!upstream) return send({ status: 404, body: `no stand-in upstream at ${url.pathname}` });
        const rest = prefix?.[2] ?? '/';
        const entry: LoggedUpstreamRequest = { upstream, method: req.method ?? 'GET', url: `${rest}${url.search}`, at: new Date().toISOString() };
        this.requests.push(entry);
        if (this.options.logFile) appendFileSync(this.options.logFile, JSON.stringify(entry) + '\n');
        const body = Buffer.concat(chunks).toString('utf8');
        let parsed: unknown;
        try {
          parsed = body ? JSON.parse(body) : undefined;
        } catch {
          parsed = undefined;
        }
        let path = rest;
        try {
          path = decodeURIComponent(rest);
        } catch {
          // a path that is not percent-encoded text is matched as it is
        }
        try {
          send(this.handlers[upstream]({ upstream, method: req.method ?? 'GET', path, query: Object.fromEntries(url.searchParams), headers: req.headers, body, json: parsed }));
        } catch (error) {
          send({ status: 500, body: { error: `stand-in ${upstream} failed: ${(error as Error).message}` } });
        }
      });
    });
  }

  /** Listens on 127.0.0.1 (`port` 0: any free port). */
  async start(port = 0): Promise<this> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The tools' endpoints on this stand-in (a job's `tools.endpoints`). */
  get endpoints(): Endpoints {
    return {
      wikipedia: `${this.url}/wikipedia/{lang}/w/api.php`,
      serper: `${this.url}/serper`,
      googleMaps: `${this.url}/google/maps/api`,
      openMeteoArchive: `${this.url}/open-meteo-archive/v1`,
      openMeteoForecast: `${this.url}/open-meteo-forecast/v1`,
      restCountries: `${this.url}/restcountries/v3.1`,
      yahooFinance: `${this.url}/yahoo`,
      binanceUs: `${this.url}/binance-us/api/v3`,
      binance: `${this.url}/binance/api/v3`,
      codeModel: `${this.url}/openai/v1`,
    };
  }

  /** Requests so far per upstream. */
  counts(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const r of this.requests) counts[r.upstream] = (counts[r.upstream] ?? 0) + 1;
    return counts;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
