/**
 * The agents a job config can name. Kept apart from the registry so that naming them (`--agent` help,
 * config checks) loads no adapter: the adapters pull in their own libraries.
 */
export const AGENT_NAMES = ['oracle', 'random', 'command', 'claude-code', 'codex', 'mini-swe-agent', 'llm'] as const;
export type AgentName = (typeof AGENT_NAMES)[number];
