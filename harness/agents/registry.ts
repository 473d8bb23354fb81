import { claudeCodeAgent } from './claude-code/adapter.js';
import { codexAgent } from './codex/adapter.js';
import { commandAgent } from './command/adapter.js';
import { llmAgent } from './llm/adapter.js';
import { miniSweAgent } from './mini-swe-agent/adapter.js';
import { oracleAgent } from './oracle/adapter.js';
import { randomAgent } from './random/adapter.js';
import type { AgentAdapter } from './types.js';

/** Agent adapters by name, as job configs name them (`agents: [{name: oracle}]`). */
const AGENTS: Record<string, AgentAdapter> = {
  oracle: oracleAgent,
  random: randomAgent,
  command: commandAgent,
  'claude-code': claudeCodeAgent,
  codex: codexAgent,
  'mini-swe-agent': miniSweAgent,
  llm: llmAgent,
};

export const AGENT_NAMES = Object.keys(AGENTS);

export function agentAdapter(name: string): AgentAdapter {
  const adapter = AGENTS[name];
  if (!adapter) throw new Error(`unknown agent '${name}'; known: ${AGENT_NAMES.join(', ')}`);
  return adapter;
}
