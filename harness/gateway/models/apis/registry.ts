import { anthropicApi } from './anthropic/index.js';
import { openaiApi } from './openai/index.js';
import { BUILT_IN, Registry } from '../../../../common/registry.js';
import { TRANSCRIPT_READERS } from '../../../../trial/trajectory/readers.js';
import type { PriceTable } from '../prices.js';
import type { ModelApiModule, ModelRouteSpec } from './types.js';

/** The model APIs the gateway proxies (a new API is a folder beside these and its line here, or a plugin's entry). */
export const MODEL_API_REGISTRY = new Registry<ModelApiModule>('model API', (m) => m.id);

/** The APIs in registration order (live: a plugin's APIs join them). */
export const MODEL_APIS: readonly ModelApiModule[] = MODEL_API_REGISTRY.entries;

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

/** Every registered API's prices (live: a plugin's API adds its own). */
export const BUILT_IN_PRICES: PriceTable = mergedPriceTable([]);

/** Why a model API cannot be registered (its id, a route or a priced model is another API's), or undefined. */
export function modelApiClash(api: ModelApiModule): string | undefined {
  if (MODEL_API_REGISTRY.has(api.id)) return `model API '${api.id}' is already registered by ${MODEL_API_REGISTRY.fromOf(api.id)}`;
  const taken = api.routes.find((r) => findRoute(r.path) || MODEL_APIS.some((m) => m.routes.some((o) => o.api === r.api)) || TRANSCRIPT_READERS.has(r.api));
  if (taken) return `model API '${api.id}': its route ${taken.path} (api ${taken.api}) is another API's`;
  try {
    mergedPriceTable([...MODEL_APIS, api]);
  } catch (error) {
    return `model API '${api.id}': ${(error as Error).message}`;
  }
  return undefined;
}

/** Registers a model API: its routes' api names and its prices must be its own; its routes' transcript readers go to the trajectory's registry. */
export function addModelApi(api: ModelApiModule, from: string = BUILT_IN): void {
  const clash = modelApiClash(api);
  if (clash) throw new Error(`${clash} (${from})`);
  const merged = mergedPriceTable([...MODEL_APIS, api]);
  MODEL_API_REGISTRY.add(api, from);
  Object.assign(BUILT_IN_PRICES.models, merged.models);
  for (const route of api.routes) if (route.transcript) TRANSCRIPT_READERS.add({ api: route.api, reader: route.transcript }, from);
}

addModelApi(anthropicApi);
addModelApi(openaiApi);

/** The module of an `id` (`anthropic`) or of a route's `api` (`anthropic-messages`). */
export function modelApi(idOrApi: string): ModelApiModule {
  const found = MODEL_API_REGISTRY.find(idOrApi) ?? MODEL_APIS.find((m) => m.routes.some((r) => r.api === idOrApi));
  if (!found) throw new Error(MODEL_API_REGISTRY.unknownMessage(idOrApi));
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
