import { JobConfigSchema } from '../../../../harness/config/schema.js';
import { gatewayOptionsOf } from '../../../../harness/gateway/models/handler.js';
import { MODEL_APIS, modelApi, modelApiOfPath } from '../../../../harness/gateway/models/apis/registry.js';
import { resolveRoute } from '../../../../harness/gateway/models/routes.js';

describe('the model API registry', () => {
  test('each API owns its routes under /<id>/, and every api name belongs to one API', () => {
    expect(MODEL_APIS.map((m) => m.id)).toEqual(['anthropic', 'openai']);
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
    expect(() => modelApi('gemini')).toThrow("unknown model API 'gemini'; known: anthropic, openai");
  });

  test("the config's models section is made from the registry, with the same keys, order and defaults as before", () => {
    const models = JobConfigSchema.shape.models.parse(undefined);
    expect(JSON.stringify(models)).toBe('{"anthropic_base_url":"https://api.anthropic.com","openai_base_url":"https://api.openai.com/v1","max_attempts":4,"timeout_s":300}');
    const given = JobConfigSchema.shape.models.parse({ openai_base_url: 'http://127.0.0.1:9/v1', prices: 'p.yaml' });
    expect(JSON.stringify(given)).toBe('{"anthropic_base_url":"https://api.anthropic.com","openai_base_url":"http://127.0.0.1:9/v1","prices":"p.yaml","max_attempts":4,"timeout_s":300}');
    expect(() => JobConfigSchema.shape.models.parse({ gemini_base_url: 'http://x' })).toThrow(/gemini_base_url/);
    expect(gatewayOptionsOf(given, (p) => `/cfg/${p}`)).toEqual({
      anthropicBaseUrl: 'https://api.anthropic.com',
      openaiBaseUrl: 'http://127.0.0.1:9/v1',
      prices: '/cfg/p.yaml',
      maxAttempts: 4,
      timeoutMs: 300_000,
    });
  });
});
