import { claudeCodeAgent } from './claude-code/adapter.js';
import { codexAgent } from './codex/adapter.js';
import { commandAgent } from './command/adapter.js';
import { llmAgent } from './llm/adapter.js';
import { miniSweAgent } from './mini-swe-agent/adapter.js';
import { oracleAgent } from './oracle/adapter.js';
import { randomAgent } from './random/adapter.js';
import type { AgentAdapter } from './types.js';

/**
 * Every agent a job config can name, one line each: an agent is a folder with its adapter (name, image
 * layer, families it plays, launch) and its line here. The adapters are small and load no libraries of their own.
 */
const AGENTS: readonly AgentAdapter[] = [oracleAgent, randomAgent, commandAgent, claudeCodeAgent, codexAgent, miniSweAgent, llmAgent];

const BY_NAME: ReadonlyMap<string, AgentAdapter> = new Map(AGENTS.map((a) => [a.name, a]));

export const AGENT_NAMES: readonly string[] = AGENTS.map((a) => a.name);

export function findAgent(name: string): AgentAdapter | undefined {
  return BY_NAME.get(name);
}

export function agentAdapter(name: string): AgentAdapter {
  const adapter = BY_NAME.get(name);
  if (!adapter) throw new Error(`unknown agent '${name}'; known: ${AGENT_NAMES.join(', ')}`);
  return adapter;
}

/** Why this agent cannot play this task family, or undefined when it can (or is unknown: that is said where it runs). */
export function agentFamilyProblem(name: string, family: string): string | undefined {
  const families = BY_NAME.get(name)?.families;
  if (!families || families === 'any' || families.includes(family)) return undefined;
  return `the ${name} agent plays the ${families.join(', ')} famil${families.length === 1 ? 'y' : 'ies'} only, not ${family} (tasks.family)`;
}
