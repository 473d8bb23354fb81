import path from 'node:path';
import { packagePath } from '../../../paths.js';
import type { JobConfig } from '../../config/schema.js';
import type { ModelHandler } from '../server.js';
import { createModelHandler } from './proxy.js';

/**
 * The model gateway of a job, built from its `models:` settings. Keys come from the host environment
 * (ANTHROPIC_API_KEY, OPENAI_API_KEY); without them a handler is still returned and model requests fail
 * with a clear error. `resolvePath` resolves a configured price table (relative to the config file);
 * without it a relative path is taken from the current directory.
 */
export function modelHandlerFor(config: JobConfig, resolvePath: (p: string) => string = (p) => path.resolve(p)): ModelHandler | undefined {
  const models = config.models;
  return createModelHandler({
    anthropicBaseUrl: models.anthropic_base_url,
    openaiBaseUrl: models.openai_base_url,
    prices: models.prices ? resolvePath(models.prices) : packagePath('configs', 'prices.yaml'),
    maxAttempts: models.max_attempts,
    timeoutMs: models.timeout_s * 1000,
  });
}
