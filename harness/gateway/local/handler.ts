import type { ModelHandler } from '../server.js';
import { createModelHandler, type ModelHandlerOptions } from '../models/proxy.js';
import { loadPriceTable, type PriceTable } from '../models/prices.js';
import { MODEL_APIS, modelApiOfPath } from '../models/apis/registry.js';
import { sendModelError } from '../models/routes.js';
import type { LocalModelOptions } from './engine.js';
import type { LocalModelServer } from './server.js';

export interface LocalHandlerOptions extends LocalModelOptions {
  /** The price table of the job; the local model is added at 0 USD. */
  prices: string | PriceTable;
  timeoutMs?: number;
}

/**
 * The model gateway with the local model as its only upstream: the model is loaded on the first request
 * and served on loopback by its own HTTP face, which the usual proxy then calls with its key, so the
 * trial's budget, usage and model log work exactly as with a remote provider. One retry at most: a local
 * failure does not heal by waiting.
 */
export function localModelHandler(options: LocalHandlerOptions): ModelHandler & { close(): Promise<void>; server(): Promise<LocalModelServer> } {
  let started: Promise<{ server: LocalModelServer; handler: ModelHandler }> | undefined;
  const start = async () => {
    // Loaded here: node-llama-cpp takes most of a second to import, and only jobs with a local model need it.
    const { startLocalModelServer } = await import('./server.js');
    const server = await startLocalModelServer(options);
    const table = typeof options.prices === 'string' ? loadPriceTable(options.prices) : options.prices;
    const prices: PriceTable = { ...table, models: { ...table.models, [server.model.name]: { input: 0, output: 0, cached_input: 0 } } };
    // Every model API of the registry goes to the local model's face (an API it does not speak gets its 404).
    const proxy: ModelHandlerOptions = {
      ...Object.fromEntries(MODEL_APIS.flatMap((m) => [[`${m.id}BaseUrl`, server.baseUrls[m.id] ?? server.url], [`${m.id}ApiKey`, server.key]])),
      prices,
      maxAttempts: 1,
      timeoutMs: options.timeoutMs,
    };
    return { server, handler: createModelHandler(proxy) };
  };
  const handler: ModelHandler = async (req, res, trial, readBody) => {
    started ??= start();
    let local: Awaited<typeof started>;
    try {
      local = await started;
    } catch (error) {
      const message = `AAR model gateway: the local model ${options.path} could not be loaded: ${(error as Error).message}`;
      return sendModelError(res, (modelApiOfPath(req.url ?? '/') ?? MODEL_APIS.at(-1)!).id, 500, 'api_error', message, 'aar_local_model_failed');
    }
    return local.handler(req, res, trial, readBody);
  };
  return Object.assign(handler, {
    /** The local model's server (loading it if no request did yet). */
    server: async () => (await (started ??= start())).server,
    async close() {
      if (started) await (await started.catch(() => undefined))?.server.close();
    },
  });
}
