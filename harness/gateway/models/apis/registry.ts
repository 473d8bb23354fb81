import { anthropicApi } from './anthropic/index.js';
import { openaiApi } from './openai/index.js';
import type { PriceTable } from '../prices.js';
import type { ModelApiModule, ModelRouteSpec } from './types.js';

/** The model APIs the gateway proxies, one line each (a new API is a folder beside these and its line here). */
export const MODEL_APIS: readonly ModelApiModule[] = [anthropicApi, openaiApi];

/**
 * The built-in price table: every API's own prices.ts, merged. A model two APIs both price is an error at
 * start (which price would apply is not something to leave to import order). A job's `models.prices` replaces it.
 */
export function mergedPriceTable(apis: readonly Pick<ModelApiModule, 'id' | 'prices'>[]): PriceTable {
  const models: PriceTable['models'] = {};
  for (const api of apis) {
    for (const [name, price] of Object.entries(api.prices)) {
      const other = apis.find((a) => a !== api && name in a.prices);
      if (name in models || other) throw new Error(`harness/gateway/models/apis/${api.id}/prices.ts: ${name}: also priced by the ${other?.id} model API`);
      models[name] = price;
    }
  }
  return { currency: 'USD', unit: 'per_million_tokens', models };
}

export const BUILT_IN_PRICES: PriceTable = mergedPriceTable(MODEL_APIS);

const BY_ID: ReadonlyMap<string, ModelApiModule> = new Map(MODEL_APIS.map((m) => [m.id, m]));
const BY_API: ReadonlyMap<string, ModelApiModule> = new Map(MODEL_APIS.flatMap((m) => m.routes.map((r) => [r.api, m] as const)));

/** The module of an `id` (`anthropic`) or of a route's `api` (`anthropic-messages`). */
export function modelApi(idOrApi: string): ModelApiModule {
  const found = BY_ID.get(idOrApi) ?? BY_API.get(idOrApi);
  if (!found) throw new Error(`unknown model API '${idOrApi}'; known: ${MODEL_APIS.map((m) => m.id).join(', ')}`);
  return found;
}

/** The module whose `/<id>/` prefix a gateway path has, if any. */
export const modelApiOfPath = (url: string): ModelApiModule | undefined => MODEL_APIS.find((m) => url.startsWith(`/${m.id}/`));

export function findRoute(path: string): { module: ModelApiModule; route: ModelRouteSpec } | undefined {
  for (const module of MODEL_APIS) {
    const route = module.routes.find((r) => r.path === path);
    if (route) return { module, route };
  }
  return undefined;
}
