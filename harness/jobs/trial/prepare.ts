import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createStaging, TRIAL_FILES } from '../../../trial/folder.js';
import type { AgentLaunch } from '../../agents/types.js';
import type { GatewayTrial } from '../../gateway/trials.js';
import type { TrialPlan } from '../plan.js';
import type { TrialRunContext } from './context.js';

/** The port the gateway answers on inside every container. */
export const GATEWAY_PORT = 8900;
export const GATEWAY_URL = `http://127.0.0.1:${GATEWAY_PORT}`;

/** A trial's folder being built under the job's .partial/ and its registration with the gateway. */
export interface StagedTrial {
  /** The model turns the trial runs under: the family's B unless the job's budget.steps sets another. */
  budget: number;
  staging: string;
  agentDir: string;
  toolLogPath: string;
  gatewayTrial: GatewayTrial;
}

/** What the agent is told and how it starts. */
export interface PreparedAgent {
  instruction: string;
  launch: AgentLaunch;
}

/** Phase 1a: the staged folder (an empty tool log in it) and the trial's gateway token, budget and tool session. */
export function stageTrial(ctx: TrialRunContext, plan: TrialPlan): StagedTrial {
  const { config } = ctx;
  const budget = config.budget.steps === 'auto' ? ctx.family.stepBudget(plan.task) : config.budget.steps;
  const staging = createStaging(ctx.jobDir, plan.trialId);
  const agentDir = path.join(staging, TRIAL_FILES.agentDir);
  mkdirSync(agentDir);
  const toolLogPath = path.join(staging, TRIAL_FILES.toolLog);
  writeFileSync(toolLogPath, '');
  const gatewayTrial = ctx.gateway.trials.register({
    trialId: plan.trialId,
    taskId: plan.task.id,
    toolLogPath,
    modelLogPath: path.join(staging, TRIAL_FILES.modelLog),
    budget: { maxTurns: budget, maxTokens: config.budget.max_tokens, maxCostUsd: config.budget.max_cost_usd },
    session: ctx.family.toolSession?.(plan.task, { dir: staging, seed: plan.seed, attempt: plan.attempt, stepBudget: budget }),
  });
  return { budget, staging, agentDir, toolLogPath, gatewayTrial };
}

/** Phase 1b: the instruction and the agent's launch (its files, command and environment). */
export async function prepareAgent(ctx: TrialRunContext, plan: TrialPlan, staged: StagedTrial): Promise<PreparedAgent> {
  const { budget, gatewayTrial } = staged;
  const instruction = ctx.family.renderInstruction(plan.task, { templatePath: ctx.instructionTemplate, stepBudget: budget, attempt: plan.attempt });
  const launch = await plan.adapter.launch({
    trialId: plan.trialId,
    family: ctx.family,
    task: plan.task,
    instruction,
    stepBudget: budget,
    agent: plan.agent,
    seed: plan.seed,
    gatewayUrl: GATEWAY_URL,
    token: gatewayTrial.token,
  });
  return { instruction, launch };
}
