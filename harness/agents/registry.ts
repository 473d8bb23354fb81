import { claudeCodeAgent } from './claude-code/adapter.js';
import { codexAgent } from './codex/adapter.js';
import { commandAgent } from './command/adapter.js';
import { llmAgent } from './llm/adapter.js';
import { miniSweAgent } from './mini-swe-agent/adapter.js';
import { oracleAgent } from './oracle/adapter.js';
import { randomAgent } from './random/adapter.js';
import { AGENT_NAMES, type AgentName } from './names.js';
import type { AgentAdapter } from './types.js';

export { AGENT_NAMES };

/** Agent adapters by name, as job configs name them (`agents: [{name: oracle}]`). */
const AGENTS: Record<AgentName, AgentAdapter> = {
  oracle: oracleAgent,
  random: randomAgent,
  command: commandAgent,
  'claude-code': claudeCodeAgent,
  codex: codexAgent,
  'mini-swe-agent': miniSweAgent,
  llm: llmAgent,
};

export function agentAdapter(name: string): AgentAdapter {
  const adapter = Object.hasOwn(AGENTS, name) ? AGENTS[name as AgentName] : undefined;
  if (!adapter) throw new Error(`unknown agent '${name}'; known: ${AGENT_NAMES.join(', ')}`);
  return adapter;
}
