import { existsSync, readFileSync } from 'node:fs';
import { needsNoProviderKeys } from '../gateway/local/spec.js';
import path from 'node:path';
import { keysFromEnv } from '../../tools/providers/types.js';
import { agentAdapter } from '../agents/registry.js';
import { environmentPlanLine } from '../environments/registry.js';
import type { LoadedConfig } from '../config/load.js';
import { agentId } from '../config/schema.js';
import { BUILT_IN_PRICES } from '../gateway/models/apis/registry.js';
import { loadPriceTable } from '../gateway/models/prices.js';
import { chooseConcurrency, type ConcurrencyChoice } from '../jobs/concurrency.js';
import { estimateAgent, type AgentEstimate } from './estimate.js';
import { changedLegs, finishedTrials, meaningDifferences, meaningOf, recordedMeaning } from '../jobs/growth.js';
import { imageSettings, planImages, type ImagePlan } from '../jobs/image-plan.js';
import { loadJobTasks } from '../jobs/job-tasks.js';
import { planTrials } from '../jobs/plan.js';
import { checkWorldCoverage, type WorldCoverage } from '../jobs/world-coverage.js';
import { STORED_MODES, type ToolMode } from '../../tools/modes.js';

/** What `aar plan` / `aar run --dry-run` shows: a job's work and cost before it runs. Nothing is built or started. */
export interface JobPreview {
  job: string;
  jobDir: string;
  legs: number;
  attempts: number;
  /** Per agent, in config order. */
  agents: { id: string; planned: number; done: number; toRun: number }[];
  planned: number;
  done: number;
  toRun: number;
  /** Why a run of this folder would be refused (empty: it would run). */
  refusal: string[];
  /** Trials at a time, and why (a number set in the config, or what this machine holds). */
  concurrency: ConcurrencyChoice;
  images: ImagePlan;
  /** Where trials run, and how images reach its nodes (environments/registry.ts environmentPlanLine). */
  environment: string;
  /** Host environment variables the job needs, who needs each, and whether it is set. */
  keys: { name: string; neededBy: string[]; set: boolean }[];
  estimates: AgentEstimate[];
  /**
   * Replay and pinned modes: which legs the store cannot serve (calls of their golden path it has no answer
   * to). `refused`: replay without --allow-missing would refuse to run them.
   */
  world?: { mode: ToolMode; coverage: WorldCoverage; refused: boolean };
}

/** Tool API keys of live and record modes, and which of a family's tools need each. */
const TOOL_KEYS: { name: string; key: keyof ReturnType<typeof keysFromEnv>; needs: (tool: string) => boolean; tools: string }[] = [
  { name: 'GOOGLE_API_KEY', key: 'google', needs: (t) => t.startsWith('maps_'), tools: 'tools: maps_*' },
  { name: 'SERPER_API_KEY', key: 'serper', needs: (t) => t === 'web_search', tools: 'tools: web_search' },
  { name: 'OPENAI_API_KEY', key: 'codeModel', needs: (t) => t === 'python_generate_code', tools: 'tools: python_generate_code' },
];

export async function previewJob(loaded: LoadedConfig, env: NodeJS.ProcessEnv = process.env, options: { allowMissing?: boolean } = {}): Promise<JobPreview> {
  const { config } = loaded;
  const { family, tasks } = await loadJobTasks(loaded);
  const plans = planTrials(config, tasks);
  const jobsDir = loaded.resolve(config.output);
  const jobDir = path.join(jobsDir, config.name);
  const done = existsSync(jobDir) ? finishedTrials(jobDir) : new Map<string, string | null>();
  const jobFile = path.join(jobDir, 'job.json');
  const previous = existsSync(jobFile) ? recordedMeaning(JSON.parse(readFileSync(jobFile, 'utf8'))) : undefined;
  const refusal = [...(previous ? meaningDifferences(previous, meaningOf(config)) : []), ...changedLegs(plans, done).map((c) => `${c}: its text changed`)];

  const agents = config.agents.map((agent) => {
    const mine = plans.filter((p) => p.agent === agent);
    return { agent, adapter: agentAdapter(agent.name), id: agentId(agent), planned: mine.length, toRun: mine.filter((p) => !done.has(p.trialId)) };
  });
  const needers = new Map<string, string[]>();
  const need = (key: string, who: string): void => void needers.set(key, [...(needers.get(key) ?? []), who]);
  if (!needsNoProviderKeys(config)) for (const a of agents) for (const key of a.adapter.hostKeys ?? []) need(key, a.id);
  if (config.tools.mode !== 'replay') for (const t of TOOL_KEYS) if (family.tools.some(t.needs)) need(t.name, t.tools);
  const setKeys = keysFromEnv(env);
  const isSet = (name: string): boolean => Boolean(env[name]) || TOOL_KEYS.some((t) => t.name === name && setKeys[t.key]);

  const prices = config.models.prices ? loadPriceTable(loaded.resolve(config.models.prices)) : BUILT_IN_PRICES;
  const budgetOf = (task: (typeof tasks)[number]): number => (config.budget.steps === 'auto' ? family.stepBudget(task) : config.budget.steps);
  const ownSteps = family.estimate;
  const estimates = agents.map((a) => {
    // The family's own step (WikiRace's move) for the agents it has a figure for, else model calls.
    const allowed = ownSteps?.prior(a.agent.name) ? ownSteps.allowed.bind(ownSteps) : budgetOf;
    const stepBudget = a.toRun.reduce((n, p) => n + allowed(p.task), 0);
    return estimateAgent({ agentId: a.id, agent: a.agent, adapter: a.adapter, trials: a.toRun.length, stepBudget, prices, jobsDir, family: { name: family.name, steps: ownSteps } });
  });
  const images = await planImages(imageSettings(config, loaded), agents);
  const { mode, store } = config.tools;
  const coverage = STORED_MODES.includes(mode) && store ? await checkWorldCoverage(family, tasks, loaded.resolve(store)) : undefined;
  const world = coverage ? { mode, coverage, refused: mode === 'replay' && coverage.missing.length > 0 && !options.allowMissing } : undefined;
  const toRun = agents.reduce((n, a) => n + a.toRun.length, 0);
  return {
    job: config.name,
    jobDir,
    legs: tasks.length,
    attempts: config.attempts,
    agents: agents.map((a) => ({ id: a.id, planned: a.planned, done: a.planned - a.toRun.length, toRun: a.toRun.length })),
    planned: plans.length,
    done: plans.length - toRun,
    toRun,
    refusal,
    concurrency: chooseConcurrency(config),
    images,
    environment: environmentPlanLine(config.environment, config as unknown as Record<string, unknown>),
    keys: [...needers].map(([name, neededBy]) => ({ name, neededBy, set: isSet(name) })),
    estimates,
    ...(world ? { world } : {}),
  };
}
