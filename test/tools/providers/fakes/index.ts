import type { HttpClientOptions } from '../../../../tools/providers/http.js';
import { createProviderContext } from '../../../../tools/providers/registry.js';
import { findTool } from '../../../../tools/catalog/index.js';
import { runOnHost } from '../../../../tools/providers/registry.js';
import type { Endpoints, ProviderContext, ProviderKeys, ToolResult } from '../../../../tools/providers/types.js';
import { openMeteoHandler, restCountriesHandler } from './data-apis.js';
import { googleMapsHandler } from './google-maps.js';
import { binanceHandler, yahooChartHandler } from './markets.js';
import { openAiHandler, serperHandler } from './search-and-code.js';
import { FakeServer, type LoggedRequest } from './server.js';
import { webPagesHandler, wikipediaHandler } from './wikipedia.js';

export { FakeServer, startFakeServer, type FakeReply, type LoggedRequest } from './server.js';

/** The keys the fakes accept. */
export const FAKE_KEYS: Required<ProviderKeys> = { google: 'test-google-key', serper: 'test-serper-key', codeModel: 'sk-test-code-model' };

/** The host variables a live job checks for, set to the fake keys while `fn` runs (restored after). */
export const FAKE_KEY_VARS = { GOOGLE_API_KEY: FAKE_KEYS.google, SERPER_API_KEY: FAKE_KEYS.serper, OPENAI_API_KEY: FAKE_KEYS.codeModel };

export async function withFakeToolKeys<T>(fn: () => Promise<T>): Promise<T> {
  const saved = Object.fromEntries(Object.keys(FAKE_KEY_VARS).map((k) => [k, process.env[k]]));
  Object.assign(process.env, FAKE_KEY_VARS);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

export interface FakeUpstreams {
  /** Endpoints pointing at the fakes (Wikipedia's keeps the `{lang}` placeholder). */
  endpoints: Endpoints;
  keys: Required<ProviderKeys>;
  /** `web` serves plain pages: use `servers.web.url + '/article.html'` and the like. */
  servers: Record<'wikipedia' | 'web' | 'googleMaps' | 'serper' | 'openMeteo' | 'restCountries' | 'yahooFinance' | 'binanceUs' | 'binance' | 'codeModel', FakeServer>;
  /** Every request any fake received, in arrival order. */
  requests: LoggedRequest[];
  /** Empties the log and resets every server's queued replies, delays and in-flight mark. */
  reset(): void;
  stop(): Promise<void>;
}

/** Starts one fake per upstream on 127.0.0.1 (random ports). */
export async function startFakeUpstreams(): Promise<FakeUpstreams> {
  const requests: LoggedRequest[] = [];
  const make = (name: string, handler: ConstructorParameters<typeof FakeServer>[1]) => new FakeServer(name, handler, requests).start();
  const [wikipedia, web, googleMaps, serper, openMeteo, restCountries, yahooFinance, binanceUs, binance, codeModel] = await Promise.all([
    make('wikipedia', wikipediaHandler),
    make('web', webPagesHandler),
    make('google-maps', googleMapsHandler(FAKE_KEYS.google)),
    make('serper', serperHandler(FAKE_KEYS.serper)),
    make('open-meteo', openMeteoHandler),
    make('rest-countries', restCountriesHandler),
    make('yahoo-finance', yahooChartHandler),
    // binance.us lists BTCUSDT only; binance.com every pair of the fake.
    make('binance-us', binanceHandler(['BTCUSDT'])),
    make('binance', binanceHandler()),
    make('code-model', openAiHandler(FAKE_KEYS.codeModel)),
  ]);
  const servers = { wikipedia, web, googleMaps, serper, openMeteo, restCountries, yahooFinance, binanceUs, binance, codeModel };
  const endpoints: Endpoints = {
    wikipedia: `${wikipedia.url}/{lang}/w/api.php`,
    serper: serper.url,
    googleMaps: googleMaps.url,
    openMeteoArchive: `${openMeteo.url}/v1`,
    openMeteoForecast: `${openMeteo.url}/v1`,
    restCountries: `${restCountries.url}/v3.1`,
    yahooFinance: yahooFinance.url,
    binanceUs: `${binanceUs.url}/api/v3`,
    binance: `${binance.url}/api/v3`,
    codeModel: `${codeModel.url}/v1`,
  };
  return {
    endpoints,
    keys: { ...FAKE_KEYS },
    servers,
    requests,
    reset() {
      requests.length = 0;
      for (const s of Object.values(servers)) s.reset();
    },
    stop: async () => {
      await Promise.all(Object.values(servers).map((s) => s.stop()));
    },
  };
}

/**
 * A provider context on the fakes with test-friendly HTTP settings: no default rate limits, 1-5 ms
 * backoff, Retry-After capped at 20 ms, 1 s timeouts, 3 attempts, the fake web server allow-listed.
 * `http` options override these.
 */
export function fakeProviderContext(fakes: FakeUpstreams, overrides: { keys?: ProviderKeys; http?: HttpClientOptions; codeModel?: string } = {}): ProviderContext {
  return createProviderContext({
    endpoints: fakes.endpoints,
    keys: overrides.keys ?? fakes.keys,
    codeModel: overrides.codeModel,
    httpOptions: {
      providerDefaults: {},
      defaultLimits: { concurrency: 8, timeoutMs: 1000, maxAttempts: 3 },
      backoffBaseMs: 1,
      backoffMaxMs: 5,
      retryAfterMaxMs: 20,
      // fetch_webpage is guarded against non-public addresses: the fake web server's is allowed by name.
      allowAddresses: [new URL(fakes.servers.web.url).host],
      ...overrides.http,
    },
  });
}

/**
 * For a test file: starts the fake upstreams before its tests, resets them before each test and stops
 * them after. Read `fakes` and `ctx` inside tests (they are set once beforeAll has run).
 */
export function useFakeUpstreams(): { readonly fakes: FakeUpstreams; readonly ctx: ProviderContext } {
  const state = {} as { fakes: FakeUpstreams; ctx: ProviderContext };
  beforeAll(async () => {
    state.fakes = await startFakeUpstreams();
    state.ctx = fakeProviderContext(state.fakes);
  });
  afterAll(() => state.fakes.stop());
  beforeEach(() => state.fakes.reset());
  return state;
}

/** A host call of the tool by its definition, over its provider's transport. */
export const callTool = (tool: string, args: Record<string, unknown>, context: ProviderContext): Promise<ToolResult> => runOnHost(findTool(tool)!, args, context);

/** A host call of the tool with its JSON text parsed (data is undefined for an error result). */
export async function callParsed(tool: string, args: Record<string, unknown>, context: ProviderContext) {
  const r = await callTool(tool, args, context);
  return { ...r, data: r.ok ? JSON.parse(r.text) : undefined };
}
