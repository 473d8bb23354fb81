import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { TRIAL_FILES } from '../../trial/folder.js';
import { MODEL_APIS } from '../gateway/models/apis/registry.js';
import { findPrice, requestCost, type PriceTable } from '../gateway/models/prices.js';
import type { AgentAdapter } from '../agents/types.js';
import type { AgentConfig } from '../config/schema.js';
import { DEFAULT_FAMILY, type StepEstimate } from '../../tasks/family.js';

/**
 * Tokens and cost of the trials a job is about to run, per agent. Steps are bounded by the step budgets;
 * tokens per step come from earlier trials of the same framework, model and task family under the jobs
 * folder when there are any, else from the AAR paper's figures (mean tokens per trial / mean steps per
 * trial). A family with its own step (WikiRace's move: FamilyTask.estimate) counts in it for the agents it
 * has a figure for: at most the steps its tasks allow, at its tokens per step, measured per step made.
 */

/** Tokens of one model turn. */
export interface StepTokens {
  input: number;
  output: number;
  /** Of `input`, read from the prompt cache. */
  cached: number;
}

/**
 * Per-step priors from the AAR paper (section 5 and appendix O): Codex CLI 1.4-1.8M tokens per trial over
 * 34-48 steps; mini-swe-agent 149-187K over 8-9 steps; Claude Code 114-225K (steps not given: taken as
 * mini-swe-agent's ~20K per step). Output taken as 3% of the total, no cache reads: an upper side.
 */
const PAPER_TOKENS_PER_STEP: Record<string, number> = { codex: 40_000, 'mini-swe-agent': 20_000, 'claude-code': 20_000 };
const DEFAULT_TOKENS_PER_STEP = 20_000;
const OUTPUT_SHARE = 0.03;

export interface Measured {
  /** Where the figures come from (job folders). */
  jobs: string[];
  /**
   * `provider`: those jobs sent their model requests to the model APIs' own endpoints. `stand-in`: there were
   * none, and the figures come from jobs answered by something else (a local model, an OpenAI-compatible
   * server, another base URL such as a test's scripted model), named in `standIns`.
   */
  upstream: 'provider' | 'stand-in';
  standIns: string[];
  /** Jobs of this agent answered by a stand-in, left out because jobs against the provider were found. */
  leftOut: string[];
  trials: number;
  perStep: StepTokens;
  /** Steps used / steps allowed, over those trials. */
  budgetUsed: number;
}

export interface AgentEstimate {
  agentId: string;
  trials: number;
  /** The sum of the step budgets of the trials to run (in `unit`s). */
  stepBudget: number;
  /** What a step is: 'step' (a model call), or the family's own ('move'). */
  unit: string;
  /** Where a prior's figure comes from (basis 'paper'). */
  source?: string;
  usesModel: boolean;
  perStep: StepTokens;
  basis: 'measured' | 'paper' | 'none';
  measured?: Measured;
  /** Tokens (input + output) if every trial used its whole step budget. */
  maxTokens: number;
  maxCostUsd: number | null;
  /** At the measured share of the budget used (only with measured figures). */
  expectedTokens?: number;
  expectedCostUsd?: number | null;
  /** The price table's name for the model, when it has one. */
  priced?: string;
}

/** At most this many trial records are read per job folder, so a plan stays fast on big jobs folders. */
const MAX_RECORDS_PER_JOB = 400;

interface RawRecord {
  agent?: { name?: string; model?: string | null };
  step_budget?: number;
  family?: string;
  run?: { steps?: number | null; input_tokens?: number | null; output_tokens?: number | null; cached_tokens?: number | null };
}

/** The family a job runs, as the estimate needs it: its name, and its own step when the agent is counted in it. */
export interface EstimateFamily {
  name: string;
  steps?: StepEstimate<never, any>;
}

/** Steps made and allowed by one stored trial: the family's (from score.json), else the run's model calls. */
function stepsOf(trialDir: string, record: RawRecord, family: EstimateFamily): { steps: number; allowed: number } | undefined {
  if (!family.steps) return record.run?.steps ? { steps: record.run.steps, allowed: record.step_budget ?? record.run.steps } : undefined;
  try {
    const made = family.steps.measured(JSON.parse(readFileSync(path.join(trialDir, TRIAL_FILES.score), 'utf8')));
    return made.steps > 0 ? made : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Who answered a job's model requests, from its job.json: null for the model APIs' own endpoints, else what
 * stood in for them (`provider: local`, an OpenAI-compatible server, a changed `<api>_base_url`, or an agent
 * model `local:...`). A job without job.json or a models section is taken as the provider's.
 */
export function modelStandInOf(jobDir: string, agent: AgentConfig): string | null {
  if (agent.model?.startsWith('local:')) return `the local model ${agent.model.slice('local:'.length)}`;
  let models: Record<string, unknown> | undefined;
  try {
    models = (JSON.parse(readFileSync(path.join(jobDir, 'job.json'), 'utf8')) as { config?: { models?: Record<string, unknown> } }).config?.models;
  } catch {
    return null;
  }
  if (!models) return null;
  if (models.provider === 'local') return `the local model ${String(models.path ?? '')}`.trim();
  if (models.provider === 'openai-compatible') return `the OpenAI-compatible server ${String(models.base_url ?? '')}`.trim();
  for (const api of MODEL_APIS) {
    const url = models[`${api.id}_base_url`];
    if (typeof url === 'string' && url.replace(/\/+$/, '') !== api.defaultBaseUrl.replace(/\/+$/, '')) return `${api.id}_base_url ${url}`;
  }
  return null;
}

type TokenSum = { trials: number; steps: number; budget: number; input: number; output: number; cached: number };

/**
 * Token counts of earlier trials of this framework, model and family, from every job folder under `jobsDir`:
 * those of jobs answered by the model's provider when there are any, else those of jobs answered by a stand-in
 * (a scripted or local model's tokens say little of a real model's), and which it was.
 */
export function measuredTokens(jobsDir: string, agent: AgentConfig, family: EstimateFamily = { name: DEFAULT_FAMILY }): Measured | undefined {
  if (!existsSync(jobsDir)) return undefined;
  const perJob: { job: string; standIn: string | null; sum: TokenSum }[] = [];
  for (const job of readdirSync(jobsDir, { withFileTypes: true })) {
    if (!job.isDirectory() || job.name.startsWith('.')) continue;
    const jobDir = path.join(jobsDir, job.name);
    let read = 0;
    const sum: TokenSum = { trials: 0, steps: 0, budget: 0, input: 0, output: 0, cached: 0 };
    for (const trial of readdirSync(jobDir, { withFileTypes: true })) {
      if (!trial.isDirectory() || trial.name.startsWith('.') || read >= MAX_RECORDS_PER_JOB) continue;
      let record: RawRecord;
      const trialDir = path.join(jobDir, trial.name);
      try {
        record = JSON.parse(readFileSync(path.join(trialDir, TRIAL_FILES.record), 'utf8')) as RawRecord;
      } catch {
        continue;
      }
      read++;
      const run = record.run;
      if (record.agent?.name !== agent.name || (record.agent.model ?? undefined) !== agent.model || (record.family ?? DEFAULT_FAMILY) !== family.name) continue;
      if (!run || run.input_tokens == null || run.output_tokens == null) continue;
      const made = stepsOf(trialDir, record, family);
      if (!made) continue;
      sum.trials++;
      sum.steps += made.steps;
      sum.budget += made.allowed;
      sum.input += run.input_tokens;
      sum.output += run.output_tokens;
      sum.cached += run.cached_tokens ?? 0;
    }
    if (sum.trials) perJob.push({ job: job.name, standIn: modelStandInOf(jobDir, agent), sum });
  }
  const provider = perJob.filter((j) => j.standIn === null);
  const used = provider.length ? provider : perJob;
  if (!used.length) return undefined;
  const sum = used.reduce<TokenSum>((a, { sum: s }) => ({ trials: a.trials + s.trials, steps: a.steps + s.steps, budget: a.budget + s.budget, input: a.input + s.input, output: a.output + s.output, cached: a.cached + s.cached }), { trials: 0, steps: 0, budget: 0, input: 0, output: 0, cached: 0 });
  return {
    jobs: used.map((j) => j.job),
    upstream: provider.length ? 'provider' : 'stand-in',
    standIns: provider.length ? [] : [...new Set(used.map((j) => `${j.job}: ${j.standIn}`))],
    leftOut: provider.length ? perJob.filter((j) => j.standIn !== null).map((j) => j.job) : [],
    trials: sum.trials,
    perStep: { input: sum.input / sum.steps, output: sum.output / sum.steps, cached: sum.cached / sum.steps },
    budgetUsed: Math.min(1, sum.steps / sum.budget),
  };
}

function paperPerStep(name: string): StepTokens {
  const total = PAPER_TOKENS_PER_STEP[name] ?? DEFAULT_TOKENS_PER_STEP;
  return { input: total * (1 - OUTPUT_SHARE), output: total * OUTPUT_SHARE, cached: 0 };
}

/**
 * The estimate of one agent's trials. `stepBudget` sums the trials' step budgets (model calls); with
 * `ownSteps` (the family's own step, for an agent it has a figure for) it sums the steps they allow instead.
 */
export function estimateAgent(options: {
  agentId: string;
  agent: AgentConfig;
  adapter: AgentAdapter;
  trials: number;
  stepBudget: number;
  prices: PriceTable;
  jobsDir: string;
  family?: EstimateFamily;
}): AgentEstimate {
  const { agent, adapter, trials, stepBudget } = options;
  const family = options.family ?? { name: DEFAULT_FAMILY };
  const prior = family.steps?.prior(agent.name);
  const unit = prior ? family.steps!.unit : 'step';
  const base = { agentId: options.agentId, trials, stepBudget, unit, usesModel: adapter.usesModel };
  if (!adapter.usesModel) return { ...base, perStep: { input: 0, output: 0, cached: 0 }, basis: 'none', maxTokens: 0, maxCostUsd: 0 };
  const measured = measuredTokens(options.jobsDir, agent, prior ? family : { name: family.name });
  const perStep = measured?.perStep ?? (prior ? { input: prior.input, output: prior.output, cached: 0 } : paperPerStep(agent.name));
  const price = findPrice(options.prices, agent.model);
  const costOf = (steps: number): number | null =>
    price ? requestCost(price.price, { input: perStep.input * steps, output: perStep.output * steps, cached: perStep.cached * steps, cacheWrite: 0 }) : null;
  const tokensOf = (steps: number): number => Math.round((perStep.input + perStep.output) * steps);
  return {
    ...base,
    perStep,
    basis: measured ? 'measured' : 'paper',
    ...(!measured && prior ? { source: prior.source } : {}),
    ...(measured ? { measured, expectedTokens: tokensOf(stepBudget * measured.budgetUsed), expectedCostUsd: costOf(stepBudget * measured.budgetUsed) } : {}),
    maxTokens: tokensOf(stepBudget),
    maxCostUsd: costOf(stepBudget),
    ...(price ? { priced: price.name } : {}),
  };
}
