import path from 'node:path';
import type { JobConfig } from '../../config/schema.js';
import { resolveModelFile } from '../local/catalog.js';
import { localModelHandler } from '../local/handler.js';
import { localModelSpec } from '../local/spec.js';
import type { ModelHandler } from '../server.js';
import { BUILT_IN_PRICES, MODEL_APIS } from './apis/registry.js';
import { openAICompatibleHandler } from './compat/handler.js';
import { createModelHandler, type ModelHandlerOptions } from './proxy.js';

/**
 * The handler options of a job config's `models:` settings: each API's `<id>_base_url` as `<id>BaseUrl`, the
 * price table (configured, resolved by `resolvePath`, or the built-in one of the model APIs), attempts, timeout,
 * whether the conversation is recorded.
 */
export function gatewayOptionsOf(models: JobConfig['models'], resolvePath: (p: string) => string): ModelHandlerOptions {
  const baseUrls = models as Readonly<Record<string, unknown>>;
  return {
    ...Object.fromEntries(MODEL_APIS.map((m) => [`${m.id}BaseUrl`, baseUrls[`${m.id}_base_url`] as string])),
    prices: models.prices ? resolvePath(models.prices) : BUILT_IN_PRICES,
    maxAttempts: models.max_attempts,
    timeoutMs: models.timeout_s * 1000,
    ...(models.record_conversation === undefined ? {} : { recordConversation: models.record_conversation }),
  };
}

/**
 * The model gateway of a job, built from its `models:` settings. Keys come from the host environment
 * (each API's key variable); without them a handler is still returned and model requests fail with a
 * clear error. `resolvePath` resolves a configured price table (relative to the config file); without it
 * a relative path is taken from the current directory. A job with a local model (`localModelSpec`) sends all
 * its model traffic there (its path resolved the same way); the caller closes the handler after the job.
 */
export function modelHandlerFor(config: JobConfig, resolvePath: (p: string) => string = (p) => path.resolve(p)): (ModelHandler & { close?(): Promise<void> }) | undefined {
  const options = gatewayOptionsOf(config.models, resolvePath);
  if (config.models.provider === 'openai-compatible') {
    return openAICompatibleHandler({ baseUrl: config.models.base_url!, apiKey: process.env.OPENAI_API_KEY?.trim() ?? '', model: config.models.upstream_model }, options);
  }
  const local = localModelSpec(config);
  if (local === undefined) return createModelHandler(options);
  const models = config.models;
  return localModelHandler({
    path: resolveModelFile(local, resolvePath),
    parallel: models.parallel,
    contextSize: models.context_size,
    threads: models.threads,
    defaultMaxTokens: models.max_output_tokens,
    prices: options.prices!,
    timeoutMs: options.timeoutMs,
  });
}
