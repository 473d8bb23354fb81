import { JobConfigSchema } from '../../../../harness/config/schema.js';
import { gatewayOptionsOf } from '../../../../harness/gateway/models/handler.js';
import { BUILT_IN_PRICES, MODEL_APIS, mergedPriceTable, modelApi, modelApiOfPath } from '../../../../harness/gateway/models/apis/registry.js';
import { findPrice } from '../../../../harness/gateway/models/prices.js';
import { resolveRoute } from '../../../../harness/gateway/models/routes.js';

describe('the model API registry', () => {
  test('each API owns its routes under /<id>/, and every api name belongs to one API', () => {
    expect(MODEL_APIS.map((m) => m.id).slice(0, 2)).toEqual(['anthropic', 'openai']);
    const apis = MODEL_APIS.flatMap((m) => m.routes.map((r) => r.api));
    expect(new Set(apis).size).toBe(apis.length);
    for (const m of MODEL_APIS) {
      for (const r of m.routes) {
        expect(r.path.startsWith(`/${m.id}/`)).toBe(true);
        expect(modelApi(r.api)).toBe(m);
        expect(modelApiOfPath(r.path)).toBe(m);
        expect(resolveRoute('POST', `${r.path}?q=1`, {})).toEqual({ api: r.api, provider: m.id, counted: r.counted, upstreamUrl: `${m.defaultBaseUrl}${r.upstreamPath}?q=1` });
      }
    }
    expect(modelApiOfPath('/gemini/v1/models')).toBeUndefined();
    expect(() => modelApi('gemini')).toThrow(`unknown model API 'gemini'; known: ${MODEL_APIS.map((m) => m.id).join(', ')}`);
  });

  test("the config's models section is made from the registry, with the same keys, order and defaults as before", () => {
    // Each API's base URL in the registry's order, the built-in two first as job.json has always kept them.
    const baseUrls = (over: Record<string, string> = {}) => Object.fromEntries(MODEL_APIS.map((m) => [`${m.id}_base_url`, over[m.id] ?? m.defaultBaseUrl]));
    const models = JobConfigSchema.shape.models.parse(undefined);
    expect(JSON.stringify(models)).toBe(JSON.stringify({ ...baseUrls(), max_attempts: 4, timeout_s: 300 }));
    expect(JSON.stringify(models)).toMatch(/^\{"anthropic_base_url":"https:\/\/api\.anthropic\.com","openai_base_url":"https:\/\/api\.openai\.com\/v1",/);
    const given = JobConfigSchema.shape.models.parse({ openai_base_url: 'http://127.0.0.1:9/v1', prices: 'p.yaml' });
    expect(JSON.stringify(given)).toBe(JSON.stringify({ ...baseUrls({ openai: 'http://127.0.0.1:9/v1' }), prices: 'p.yaml', max_attempts: 4, timeout_s: 300 }));
    expect(() => JobConfigSchema.shape.models.parse({ gemini_base_url: 'http://x' })).toThrow(/gemini_base_url/);
    expect(gatewayOptionsOf(given, (p) => `/cfg/${p}`)).toEqual({
      ...Object.fromEntries(MODEL_APIS.map((m) => [`${m.id}BaseUrl`, m.defaultBaseUrl])),
      anthropicBaseUrl: 'https://api.anthropic.com',
      openaiBaseUrl: 'http://127.0.0.1:9/v1',
      prices: '/cfg/p.yaml',
      maxAttempts: 4,
      timeoutMs: 300_000,
    });
  });

  test("each API's prices live in its folder; the registry merges them into the built-in table, which models.prices replaces", () => {
    expect(BUILT_IN_PRICES.currency).toBe('USD');
    for (const api of MODEL_APIS) for (const [name, price] of Object.entries(api.prices)) expect(BUILT_IN_PRICES.models[name]).toBe(price);
    expect(Object.keys(BUILT_IN_PRICES.models)).toHaveLength(MODEL_APIS.reduce((n, a) => n + Object.keys(a.prices).length, 0));
    // The 28 models configs/prices.yaml had before prices moved into the APIs' folders; spot checks and a dated name.
    expect(Object.keys(modelApi('anthropic').prices).length + Object.keys(modelApi('openai').prices).length).toBe(28);
    expect(findPrice(BUILT_IN_PRICES, 'claude-haiku-4-5-20251001')).toEqual({ name: 'claude-haiku-4-5', price: { input: 1, output: 5, cached_input: 0.1, cache_write: 1.25 } });
    expect(BUILT_IN_PRICES.models['gpt-4o']).toEqual({ input: 2.5, output: 10, cached_input: 1.25 });
    const defaults = gatewayOptionsOf(JobConfigSchema.shape.models.parse(undefined), (p) => p);
    expect(defaults.prices).toBe(BUILT_IN_PRICES);
    const price = { input: 1, output: 2, cached_input: 0 };
    expect(mergedPriceTable([{ id: 'a', prices: { m: price } }, { id: 'b', prices: { n: price } }]).models).toEqual({ m: price, n: price });
    expect(() => mergedPriceTable([{ id: 'a', prices: { m: price } }, { id: 'b', prices: { m: price } }])).toThrow('harness/gateway/models/apis/a/prices.ts: m: also priced by the b model API');
  });
});
