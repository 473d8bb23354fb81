import type { ImageLayer } from '../../images/build.js';
import type { FamilyTask, TaskFamily } from '../../tasks/family.js';
import type { AgentLogFacts } from '../../trial/run-facts.js';
import type { AgentConfig } from '../config/schema.js';
import type { FileToPut } from '../environments/types.js';

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
  /** A built-in program's command (`node FILE ARGS`, container/program.ts), which the trial runner may run in its own process. */
  inProcess?: boolean;
  env: Record<string, string>;
  /** Where in the container the agent's own logs are, copied to the trial's agent/ folder afterwards. */
  logDirs: string[];
}

/**
 * One agent. The built-in agents (oracle, random, command), the real frameworks (Claude Code, Codex,
 * mini-swe-agent) and the WikiRace-only `llm` player all go through this interface; registry.ts lists them.
 */
export interface AgentAdapter {
  /** The name job configs give (`agents: [{name: oracle}]`). */
  readonly name: string;
  /** The task families it can play (`any`: every family); a job pairing it with another is refused when its config loads. */
  readonly families: 'any' | readonly string[];
  /** Its image layer on the base image (its Dockerfile beside its adapter: image-layer.ts), or null to run on the base image. */
  readonly imageLayer: ImageLayer | null;
  /** Build arguments of that layer (pinned versions). */
  buildArgs?(agent: AgentConfig): Record<string, string>;
  /** Throws when the agent's configuration cannot work (checked before a job starts). `localModel`: the job's
   * model traffic goes to a model server the job names (the local model of harness/gateway/local/, or an
   * OpenAI-compatible server), so no provider key is needed. */
  check?(agent: AgentConfig, job?: { localModel: boolean }): void;
  /** Host environment variables the agent's model traffic needs (checked before a job starts). */
  readonly hostKeys?: readonly string[];
  /** Whether the agent talks to a model through the gateway (then the gateway counts its turns). */
  readonly usesModel: boolean;
  launch(ctx: AgentContext): AgentLaunch | Promise<AgentLaunch>;
  /** A configuration it runs with (options it needs), for its conformance suite (conformance.ts); absent: its name alone. */
  readonly example?: Partial<Pick<AgentConfig, 'model' | 'options' | 'flags' | 'env' | 'version'>>;
  /** Reads turns, tokens and cost from the logs copied into hostAgentDir (stdout.log, stderr.log, logDirs);
   * the model gateway's counts win where both exist. */
  readLogs?(hostAgentDir: string): AgentLogFacts;
}
