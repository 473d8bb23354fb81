import type { JobConfig } from '../../config/schema.js';

/** An agent model that names the local model: `local:smollm2`, `local:./models/x.gguf`. */
export const LOCAL_MODEL_PREFIX = 'local:';

/**
 * The local model a job uses: `models: {provider: local, path}`, else the one its agents' `local:` models
 * name (a packaged model's name or a .gguf path); undefined when its model traffic goes to the providers.
 */
export function localModelSpec(config: Pick<JobConfig, 'models' | 'agents'>): string | undefined {
  if (config.models.provider === 'local') return config.models.path;
  const specs = new Set(config.agents.flatMap((a) => (a.model?.startsWith(LOCAL_MODEL_PREFIX) ? [a.model.slice(LOCAL_MODEL_PREFIX.length)] : [])));
  if (specs.size > 1) throw new Error(`agents name ${specs.size} local models (${[...specs].join(', ')}): a job serves one`);
  return [...specs][0];
}

/** Whether a job's model traffic goes to the local model (then no provider key is needed on the host). */
export function usesLocalModel(config: Pick<JobConfig, 'models' | 'agents'>): boolean {
  return localModelSpec(config) !== undefined;
}

/**
 * Whether the job names its model server itself (the local model, or `provider: openai-compatible` with its
 * base_url): then the agents need no provider key of the host (an OpenAI-compatible server's key is optional).
 */
export function needsNoProviderKeys(config: Pick<JobConfig, 'models' | 'agents'>): boolean {
  return config.models.provider === 'openai-compatible' || usesLocalModel(config);
}
