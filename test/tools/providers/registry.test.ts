import { ALL_TOOLS, findTool, TOOLS } from '../../../tools/catalog/index.js';
import { TOOL_PROVIDERS } from '../../../tools/providers/index.js';
import { FetchHttpClient } from '../../../tools/providers/http.js';
import { createProviderContext, PROVIDERS, providerFor, runOnHost } from '../../../tools/providers/registry.js';
import { DEFAULT_ENDPOINTS } from '../../../tools/providers/types.js';
import { fakeProviderContext, startFakeUpstreams, type FakeUpstreams } from './fakes/index.js';

describe('provider registry', () => {
  test('every host tool has the provider its definition names; python_execute_code has none', () => {
    for (const tool of TOOLS) {
      if (tool.runsIn === 'container') expect(providerFor(tool.name)).toBeUndefined();
      else expect(providerFor(tool.name)?.name).toBe(tool.provider);
      expect(typeof tool.run).toBe(tool.runsIn === 'gateway' ? 'function' : 'undefined');
    }
    for (const tool of ALL_TOOLS) if (tool.provider && tool.provider !== 'trial-session') expect([tool.name, TOOL_PROVIDERS.has(tool.provider)]).toEqual([tool.name, true]);
    expect(providerFor('python_execute_code')).toBeUndefined();
    expect(providerFor('nope')).toBeUndefined();
  });

  test('aliases are followed', () => {
    expect(providerFor('serper_search')?.name).toBe('serper');
  });

  test("the providers AAR's 19 tools go through (the paper's set), each registered under its name", () => {
    expect([...new Set(TOOLS.map((t) => t.provider).filter(Boolean))].sort()).toEqual(['binance', 'code-model', 'google-maps', 'open-meteo', 'rest-countries', 'serper', 'web', 'yahoo-finance']);
    for (const provider of TOOL_PROVIDERS.entries) expect((PROVIDERS as Record<string, unknown>)[provider.name]).toBe(provider);
  });

  test('createProviderContext: endpoint overrides, keys from the env, an HTTP client', () => {
    const ctx = createProviderContext({ endpoints: { serper: 'http://localhost:1' }, env: { GOOGLE_API_KEY: 'g', SERPER_API_KEY: '', OPENAI_API_KEY: 'o' }, codeModel: 'm' });
    expect(ctx.endpoints).toEqual({ ...DEFAULT_ENDPOINTS, serper: 'http://localhost:1' });
    expect(ctx.keys).toEqual({ google: 'g', serper: undefined, codeModel: 'o' });
    expect(ctx.http).toBeInstanceOf(FetchHttpClient);
    expect(ctx.codeModel).toBe('m');
    expect(createProviderContext({ keys: { serper: 's' } }).keys).toEqual({ serper: 's' });
  });
});

describe('limits through a provider', () => {
  let fakes: FakeUpstreams;
  beforeAll(async () => {
    fakes = await startFakeUpstreams();
  });
  afterAll(() => fakes.stop());

  test('with concurrency 2, at most 2 Google requests are in flight', async () => {
    fakes.servers.googleMaps.delayMs = 30;
    const ctx = fakeProviderContext(fakes, { http: { limits: { 'google-maps': { concurrency: 2 } } } });
    const geocode = findTool('maps_geocode')!;
    const results = await Promise.all(Array.from({ length: 6 }, () => runOnHost(geocode, { address: 'Paris' }, ctx)));
    expect(results.every((r) => r.ok)).toBe(true);
    expect(fakes.servers.googleMaps.maxInFlight).toBe(2);
  });
});
