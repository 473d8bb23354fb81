import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { storeFingerprint } from '../../../tools/store/provenance.js';
import type { CliModelGateway, CliServices } from '../../family.js';
import { loadLegs } from '../load.js';
import { loadGenerateConfig, type GenerateFlags } from './config.js';
import { gatewayModelClient, type ModelClient } from './model/client.js';
import { startRuleModelServer, type RuleModelServer } from './model/rule-server.js';
import { generateLegs } from './pipeline.js';
import { buildReport, writeReport, type GenerationReport } from './report-files.js';
import { GenerationTools } from './tool-runner.js';

/**
 * `aar legs generate CONFIG --out DIR`: loads the config, starts the tools (tool-runner.ts) and, when the
 * config names a model, the model gateway (lent by the harness; in front of the scripted model,
 * model/rule-server.ts, when `model.provider: scripted`), runs the pipeline and writes the report. Returns the report.
 */

export async function runGenerate(configFile: string, out: string, flags: GenerateFlags & { reference?: string; released?: string }, services: CliServices, log: (line: string) => void): Promise<GenerationReport> {
  const loaded = loadGenerateConfig(configFile, flags);
  const { config } = loaded;
  if (existsSync(path.join(out, 'legs')) && readdirSync(path.join(out, 'legs')).length) throw new Error(`--out ${out}: already holds generated legs (legs/); give a new folder`);
  mkdirSync(out, { recursive: true });
  const storeDir = path.join(out, 'store');
  mkdirSync(storeDir, { recursive: true });
  const tools = GenerationTools.fromConfig(config.tools, loaded.resolve, storeDir, services.harnessVersion);
  let gateway: CliModelGateway | undefined;
  let scripted: RuleModelServer | undefined;
  let model: ModelClient | undefined;
  const started = new Date();
  const t0 = performance.now();
  try {
    if (config.model) {
      if (config.model.provider === 'scripted') scripted = await startRuleModelServer();
      gateway = await services.startModelGateway({
        models: config.models ? { section: config.models, file: configFile, resolve: loaded.resolve } : undefined,
        api: config.model.api,
        ...(scripted ? { baseUrl: config.model.api === 'openai' ? `${scripted.url}/v1` : scripted.url, apiKey: scripted.key } : {}),
        out: path.join(out, 'model'),
        name: 'generate',
      });
      model = gatewayModelClient(gateway, { name: config.model.name, api: config.model.api, steps: config.model.steps, maxTokens: config.model.max_tokens });
    }
    const outcome = await generateLegs({ loaded, out, tools, model, storeDir, log });
    const elapsedS = (performance.now() - t0) / 1000;
    // Jaccard against: --reference (none: nothing), else the config's reference, else the released data when found.
    const referencePath = flags.reference === 'none' ? undefined : (flags.reference ?? (config.reference ? loaded.resolve(config.reference) : flags.released));
    const reference = referencePath && existsSync(referencePath) ? { legs: (await loadLegs(referencePath)).legs.map((l) => l.leg), path: referencePath } : null;
    const usage = gateway?.usage();
    const unpriced = gateway ? unpricedRequests(path.join(out, 'model', 'model_log.jsonl')) : 0;
    const report = buildReport({
      loaded,
      outcome,
      startedAt: started,
      elapsedS,
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      model: model && usage ? { name: model.name, steps: [...model.steps], turns: usage.turns, input_tokens: usage.inputTokens, output_tokens: usage.outputTokens, cost_usd: unpriced === usage.turns && usage.turns > 0 ? null : usage.costUsd, unpriced_requests: unpriced, by_step: model.usage } : null,
      tools: { ...tools.stats, mode: tools.mode, source: { store: config.tools.store ?? null, world: config.tools.world ?? null }, store: storeFingerprint(storeDir) },
      reference,
    });
    writeReport(out, report);
    return report;
  } finally {
    await gateway?.close();
    await scripted?.stop();
  }
}

/** Requests the gateway could not price (a model missing from the price table): their cost is unknown. */
function unpricedRequests(log: string): number {
  if (!existsSync(log)) return 0;
  return readFileSync(log, 'utf8').split('\n').filter((line) => line.includes('"cost_usd":null')).length;
}
