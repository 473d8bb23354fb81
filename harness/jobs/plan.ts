import { createHash } from 'node:crypto';
import { needsNoProviderKeys } from '../gateway/local/spec.js';
import type { FamilyTask } from '../../tasks/family.js';
import { agentAdapter } from '../agents/registry.js';
import type { AgentAdapter } from '../agents/types.js';
import { agentId, type AgentConfig, type JobConfig } from '../config/schema.js';

/** One trial to run: an agent configuration on a task, one attempt. */
export interface TrialPlan {
  /** `<agent id>__<task id, / as __>__<attempt>`: the trial folder's name. */
  trialId: string;
  agent: AgentConfig;
  agentId: string;
  adapter: AgentAdapter;
  task: FamilyTask;
  attempt: number;
  /** For seeded agents; derived from the job's seed and the trial id, so a rerun draws the same. */
  seed: number;
}

export function trialIdOf(agent: string, taskId: string, attempt: number): string {
  return `${agent}__${taskId.replaceAll('/', '__')}__${attempt}`;
}

function trialSeed(jobSeed: number, trialId: string): number {
  return createHash('sha256').update(`${jobSeed}\0${trialId}`).digest().readUInt32BE(0);
}

/**
 * agents x tasks x attempts, interleaved: attempt 1 of leg 1 for every agent, then leg 2 for every agent,
 * ..., then attempt 2. Trials start in this order, so an interrupted job leaves the agents with the same
 * legs done, and every leg has a first attempt before any has a second.
 */
export function planTrials(config: JobConfig, tasks: readonly FamilyTask[]): TrialPlan[] {
  const localModel = needsNoProviderKeys(config);
  const agents = config.agents.map((agent) => {
    const adapter = agentAdapter(agent.name);
    adapter.check?.(agent, { localModel });
    return { agent, adapter, id: agentId(agent) };
  });
  const plans: TrialPlan[] = [];
  for (let attempt = 1; attempt <= config.attempts; attempt++) {
    for (const task of tasks) {
      for (const { agent, adapter, id } of agents) {
        const trialId = trialIdOf(id, task.id, attempt);
        plans.push({ trialId, agent, agentId: id, adapter, task, attempt, seed: trialSeed(config.seed, trialId) });
      }
    }
  }
  return plans;
}
