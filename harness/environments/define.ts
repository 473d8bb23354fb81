import type { z } from 'zod';
import type { EnvironmentProvider } from './types.js';
import { Registry } from '../../common/registry.js';

/** One environment as the registry holds it: what a new environment declares in its folder's definition.ts. */
export interface EnvironmentDefinition<Settings = unknown> {
  /** How job configs and `aar cleanup --environment` name it. */
  readonly name: string;
  /** What a killed run leaves of it, in `aar cleanup`'s help (docker: containers). */
  readonly leftovers: string;
  /** Its settings' schema, under its own name in a job config (`swarm:`), built with the zod the config schema
   * passes in (so that naming the environments loads no zod); absent when it has none. */
  readonly settings?: (zod: typeof z) => z.ZodType<Settings>;
  /** Its provider for one job, given the config's settings (undefined when the config has none). The
   * environment's own module is loaded here, so reading a config loads no engine client. */
  create(settings: Settings | undefined): Promise<EnvironmentProvider>;
  /** How its conformance suite (conformance.ts) runs on this machine; absent: it needs nothing but the base image. */
  readonly conformance?: EnvironmentConformance<Settings>;
  /** What `aar plan` says of it beyond its name (how images reach its nodes), from the config's settings. */
  planNote?(settings: Settings | undefined): string;
}

export interface EnvironmentConformance<Settings> {
  /** Why the suite cannot run here (no engine answers, not a swarm manager), or undefined when it can. */
  unavailable(): Promise<string | undefined>;
  /** The settings the suite's sandboxes run with (names made unique by the suite's label). */
  settings?(suiteLabel: string): Settings | Promise<Settings>;
  /** What the suite left behind once its sandboxes were removed (names); must be nothing. */
  leftovers?(suiteLabel: string): Promise<string[]>;
}

/** The environments (live), in the order they were registered; a name registered twice is an error. */
export const ENVIRONMENTS = new Registry<EnvironmentDefinition>('environment', (e) => e.name);

/** Registers an environment (its definition.ts calls this once; registry.ts imports that file; a plugin's goes through harness/plugins/). */
export function defineEnvironment<Settings>(definition: EnvironmentDefinition<Settings>, from?: string): void {
  ENVIRONMENTS.add(definition as EnvironmentDefinition, from);
}

/** The environments registered so far, in the order they were. */
export const definedEnvironments = (): EnvironmentDefinition[] => [...ENVIRONMENTS.entries];
