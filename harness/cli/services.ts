import path from 'node:path';
import type { CliModelGateway, CliServices } from '../../tasks/family.js';
import type { ModelHandlerOptions } from '../gateway/models/proxy.js';

/**
 * The model gateway on loopback with these upstream settings, as one pseudo-trial whose model requests
 * go to `<out>/model_log.jsonl` (its tools: none).
 */
export async function openModelGateway(handler: ModelHandlerOptions, out: string, trialId: string): Promise<CliModelGateway> {
  // One after the other: Jest's module loader fails on two graphs sharing modules being linked at once.
  const { GatewayServer } = await import('../gateway/server.js');
  const { createModelHandler } = await import('../gateway/models/proxy.js');
  const { ToolService } = await import('../../tools/service.js');
  const { ResponseStore } = await import('../../tools/store/store.js');
  const gateway = new GatewayServer({
    tools: new ToolService({ mode: 'replay', store: new ResponseStore(path.join(out, '.no-tools')), offered: [] }),
    models: createModelHandler(handler),
  });
  const url = await gateway.listenTcp();
  const trial = gateway.trials.register({ trialId, toolLogPath: path.join(out, 'tool_log.jsonl'), modelLogPath: path.join(out, 'model_log.jsonl') });
  return {
    url,
    token: trial.token,
    usage: () => ({ turns: trial.usage.turns, inputTokens: trial.usage.inputTokens, outputTokens: trial.usage.outputTokens, costUsd: trial.usage.costUsd }),
    close: () => gateway.close(),
  };
}

/** The services family commands get (tasks/family.ts's CliServices); each loads its code when called. */
export const CLI_SERVICES: CliServices = {
  async startModelGateway({ config, api, baseUrl, out, name }) {
    const { gatewayOptionsOf } = await import('../gateway/models/handler.js');
    const { JobConfigSchema } = await import('../config/schema.js');
    let models = JobConfigSchema.shape.models.parse(undefined);
    let resolvePath = (p: string): string => p;
    if (config) {
      const { loadJobConfigWithPlugins } = await import('../plugins/config.js');
      const loaded = await loadJobConfigWithPlugins(config);
      models = loaded.config.models;
      resolvePath = loaded.resolve;
    }
    const { mkdir } = await import('node:fs/promises');
    await mkdir(out, { recursive: true });
    return openModelGateway({ ...gatewayOptionsOf(models, resolvePath), ...(baseUrl ? { [`${api}BaseUrl`]: baseUrl } : {}) }, out, name);
  },
};
