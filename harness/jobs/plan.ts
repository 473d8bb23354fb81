import { createHash } from 'node:crypto';
import type { LoadedLeg } from '../../tasks/aar/load.js';
import { agentAdapter } from '../agents/registry.js';
import type { AgentAdapter } from '../agents/types.js';
import { agentId, type AgentConfig, type JobConfig } from '../config/schema.js';

/** One trial to run: an agent configuration on a leg, one attempt. */
export interface TrialPlan {
  /** `<agent id>__<variant>__<level>__<leg>__<attempt>`: the trial folder's name. */
  trialId: string;
  agent: AgentConfig;
  agentId: string;
  adapter: AgentAdapter;
  leg: LoadedLeg;
  attempt: number;
  /** For seeded agents; derived from the job's seed and the trial id, so a rerun draws the same. */
  seed: number;
}

export function trialIdOf(agent: string, legId: string, attempt: number): string {
  return `${agent}__${legId.replaceAll('/', '__')}__${attempt}`;
}

function trialSeed(jobSeed: number, trialId: string): number {
  return createHash('sha256').update(`${jobSeed}\0${trialId}`).digest().readUInt32BE(0);
}

/** agents x legs x attempts, in a stable order (agent, then leg id, then attempt). */
export function planTrials(config: JobConfig, legs: readonly LoadedLeg[]): TrialPlan[] {
  const plans: TrialPlan[] = [];
  for (const agent of config.agents) {
    const adapter = agentAdapter(agent.name);
    adapter.check?.(agent);
    const id = agentId(agent);
    for (const leg of legs) {
      for (let attempt = 1; attempt <= config.attempts; attempt++) {
        const trialId = trialIdOf(id, leg.id, attempt);
        plans.push({ trialId, agent, agentId: id, adapter, leg, attempt, seed: trialSeed(config.seed, trialId) });
      }
    }
  }
  return plans;
}
