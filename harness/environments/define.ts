import type { z } from 'zod';
import type { EnvironmentProvider } from './types.js';

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
  /** What `aar plan` says of it beyond its name (how images reach its nodes), from the config's settings. */
  planNote?(settings: Settings | undefined): string;
}

const DEFINED = new Map<string, EnvironmentDefinition>();

/** Registers an environment (its definition.ts calls this once; registry.ts imports that file). */
export function defineEnvironment<Settings>(definition: EnvironmentDefinition<Settings>): void {
  if (DEFINED.has(definition.name)) throw new Error(`environment ${definition.name} is defined twice`);
  DEFINED.set(definition.name, definition as EnvironmentDefinition);
}

/** The environments registered so far, in the order they were. */
export const definedEnvironments = (): EnvironmentDefinition[] => [...DEFINED.values()];
