import { claudeCodeAgent } from './claude-code/adapter.js';
import { codexAgent } from './codex/adapter.js';
import { commandAgent } from './command/adapter.js';
import { llmAgent } from './llm/adapter.js';
import { miniSweAgent } from './mini-swe-agent/adapter.js';
import { oracleAgent } from './oracle/adapter.js';
import { randomAgent } from './random/adapter.js';
import type { AgentAdapter } from './types.js';
import { Registry } from '../../common/registry.js';

/**
 * Every agent a job config can name, one line each: an agent is a folder with its adapter (name, image
 * layer, families it plays, launch) and its line here, or a plugin's entry (harness/plugins/). The adapters
 * are small and load no libraries of their own.
 */
export const AGENTS = new Registry<AgentAdapter>('agent', (a) => a.name);
for (const agent of [oracleAgent, randomAgent, commandAgent, claudeCodeAgent, codexAgent, miniSweAgent, llmAgent]) AGENTS.add(agent);

/** The agents' names (live: a plugin's agents join them). */
export const AGENT_NAMES: readonly string[] = AGENTS.names;

export function findAgent(name: string): AgentAdapter | undefined {
  return AGENTS.find(name);
}

export function agentAdapter(name: string): AgentAdapter {
  return AGENTS.get(name);
}

/** Why this agent cannot play this task family, or undefined when it can (or is unknown: that is said where it runs). */
export function agentFamilyProblem(name: string, family: string): string | undefined {
  const families = AGENTS.find(name)?.families;
  if (!families || families === 'any' || families.includes(family)) return undefined;
  return `the ${name} agent plays the ${families.join(', ')} famil${families.length === 1 ? 'y' : 'ies'} only, not ${family} (tasks.family)`;
}
