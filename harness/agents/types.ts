import type { FamilyTask, TaskFamily } from '../../tasks/family.js';
import type { AgentLogFacts } from '../../trial/run-facts.js';
import type { AgentConfig } from '../config/schema.js';
import type { FileToPut, TrialEnvironment } from '../environments/types.js';

/** What an adapter knows about the trial it prepares. */
export interface AgentContext {
  trialId: string;
  family: TaskFamily;
  task: FamilyTask;
  /** The instruction, also at /app/instruction.md. */
  instruction: string;
  /** Model turns allowed (the paper's B unless the job sets another). */
  stepBudget: number;
  agent: AgentConfig;
  /** Seed for agents that draw random numbers; recorded in trial.json. */
  seed: number;
  /** The gateway as seen from inside the container, and the trial's token. */
  gatewayUrl: string;
  token: string;
}

/** How to run the agent in its container. */
export interface AgentLaunch {
  /** Files to put into the container before the run (besides /app/instruction.md). */
  files: FileToPut[];
  command: string[];
  env: Record<string, string>;
  /** Where in the container the agent's own logs are, copied to the trial's agent/ folder afterwards. */
  logDirs: string[];
}

/**
 * One agent framework. The built-in agents (oracle, random) and the real frameworks (Claude Code, Codex,
 * mini-swe-agent) all go through this interface.
 */
export interface AgentAdapter {
  readonly name: string;
  /** The image layer under images/agents/, or null to run on the base image. */
  readonly imageLayer: string | null;
  /** Build arguments of that layer (pinned versions). */
  buildArgs?(agent: AgentConfig): Record<string, string>;
  /** Throws when the agent's configuration cannot work (checked before a job starts). */
  check?(agent: AgentConfig): void;
  /** Host environment variables the agent's model traffic needs (checked before a job starts). */
  readonly hostKeys?: readonly string[];
  /** Whether the agent talks to a model through the gateway (then the gateway counts its turns). */
  readonly usesModel: boolean;
  launch(ctx: AgentContext): AgentLaunch | Promise<AgentLaunch>;
  /** Reads turns, tokens and cost from the logs copied into hostAgentDir (stdout.log, stderr.log, logDirs);
   * the model gateway's counts win where both exist. */
  readLogs?(hostAgentDir: string): AgentLogFacts;
  /** Optional extra collection from the container before it is removed. */
  collect?(env: TrialEnvironment, hostAgentDir: string): Promise<void>;
}
