import path from 'node:path';
import type { CliModelGateway, CliServices } from '../../tasks/family.js';
import type { ModelHandlerOptions } from '../gateway/models/proxy.js';
import type { ModelHandler } from '../gateway/server.js';
import { HARNESS_VERSION } from '../version.js';

/**
 * The model gateway on loopback with these upstream settings, as one pseudo-trial whose model requests
 * go to `<out>/model_log.jsonl` (its tools: none).
 */
export async function openModelGateway(handler: ModelHandlerOptions, out: string, trialId: string): Promise<CliModelGateway> {
  const { createModelHandler } = await import('../gateway/models/proxy.js');
  return openGatewayWith(createModelHandler(handler), out, trialId);
}

/** The same with a model handler already made (the local model's, an OpenAI-compatible server's); closing the gateway closes it. */
async function openGatewayWith(models: ModelHandler & { close?(): Promise<void> }, out: string, trialId: string): Promise<CliModelGateway> {
  // One after the other: Jest's module loader fails on two graphs sharing modules being linked at once.
  const { GatewayServer } = await import('../gateway/server.js');
  const { ToolService } = await import('../../tools/service.js');
  const { ResponseStore } = await import('../../tools/store/store.js');
  const gateway = new GatewayServer({
    tools: new ToolService({ mode: 'replay', store: new ResponseStore(path.join(out, '.no-tools')), offered: [] }),
    models,
  });
  const url = await gateway.listenTcp();
  const trial = gateway.trials.register({ trialId, toolLogPath: path.join(out, 'tool_log.jsonl'), modelLogPath: path.join(out, 'model_log.jsonl') });
  return {
    url,
    token: trial.token,
    usage: () => ({ turns: trial.usage.turns, inputTokens: trial.usage.inputTokens, outputTokens: trial.usage.outputTokens, costUsd: trial.usage.costUsd }),
    close: async () => {
      await gateway.close();
      await models.close?.();
    },
  };
}

/** The services family commands get (tasks/family.ts's CliServices); each loads its code when called. */
export const CLI_SERVICES: CliServices = {
  harnessVersion: HARNESS_VERSION,
  async startModelGateway({ config, models: written, api, baseUrl, apiKey, out, name }) {
    const { gatewayOptionsOf, modelHandlerFor } = await import('../gateway/models/handler.js');
    const { JobConfigSchema } = await import('../config/schema.js');
    let models = JobConfigSchema.shape.models.parse(undefined);
    let resolvePath = (p: string): string => p;
    if (config) {
      const { loadJobConfigWithPlugins } = await import('../plugins/config.js');
      const loaded = await loadJobConfigWithPlugins(config);
      models = loaded.config.models;
      resolvePath = loaded.resolve;
    } else if (written) {
      const parsed = JobConfigSchema.shape.models.safeParse(written.section ?? undefined);
      if (!parsed.success) {
        const issue = parsed.error.issues[0]!;
        throw new Error(`${written.file}: models.${issue.path.map(String).join('.')}: ${issue.message}`);
      }
      models = parsed.data;
      resolvePath = written.resolve;
    }
    const { mkdir } = await import('node:fs/promises');
    await mkdir(out, { recursive: true });
    const overrides = { ...(baseUrl ? { [`${api}BaseUrl`]: baseUrl } : {}), ...(apiKey ? { [`${api}ApiKey`]: apiKey } : {}) };
    if (models.provider) {
      // The local model or an OpenAI-compatible server answers every request, whatever the API.
      const handler = modelHandlerFor({ models, agents: [] } as unknown as Parameters<typeof modelHandlerFor>[0], resolvePath)!;
      return openGatewayWith(handler, out, name);
    }
    return openModelGateway({ ...gatewayOptionsOf(models, resolvePath), ...overrides }, out, name);
  },
};
