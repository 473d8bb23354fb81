/**
 * Environments by name, as job configs name them (`environment: docker`). Each environment's folder has a
 * definition.ts that registers it (define.ts): its factory, its settings (its own key of a job config) and
 * what `aar cleanup` removes of it. Adding an environment is its folder and one line here.
 */
import './docker/definition.js';
import './swarm/definition.js';
import './kubernetes/definition.js';
import type { z } from 'zod';
import { definedEnvironments, type EnvironmentDefinition } from './define.js';
import type { EnvironmentProvider } from './types.js';

export const ENVIRONMENT_NAMES = definedEnvironments().map((e) => e.name);

export const isEnvironmentName = (name: string): boolean => ENVIRONMENT_NAMES.includes(name);

export const unknownEnvironmentMessage = (name: string): string => `unknown environment '${name}'; known: ${ENVIRONMENT_NAMES.join(', ')}`;

function definitionOf(name: string): EnvironmentDefinition {
  const found = definedEnvironments().find((e) => e.name === name);
  if (!found) throw new Error(unknownEnvironmentMessage(name));
  return found;
}

/** A job's environment, with its settings from the job config (the key of its name, checked by the config schema). */
export async function environmentProvider(name: string, config: Record<string, unknown> = {}): Promise<EnvironmentProvider> {
  return definitionOf(name).create(config[name]);
}

/** The job config keys the environments bring: each one's settings under its name, optional (built with the config's zod). */
export function environmentSettingsShape(zod: typeof z): Record<string, z.ZodOptional<z.ZodType>> {
  return Object.fromEntries(
    definedEnvironments().flatMap((e) => (e.settings ? [[e.name, e.settings(zod).optional().describe(`Settings of the ${e.name} environment (\`environment: ${e.name}\`).`)]] : [])),
  );
}

/** Each environment with what `aar cleanup` removes of it: `docker (containers) or swarm (services and networks)`. */
export function environmentLeftovers(): string {
  const each = definedEnvironments().map((e) => `${e.name} (${e.leftovers})`);
  return each.length > 1 ? `${each.slice(0, -1).join(', ')} or ${each[each.length - 1]}` : each.join('');
}

/** `aar plan`'s line on a job's environment: its name, and what it says of itself (how images reach its nodes). */
export function environmentPlanLine(name: string, config: Record<string, unknown> = {}): string {
  const definition = definitionOf(name);
  const note = definition.planNote?.(config[name]);
  return note ? `${name}: ${note}` : name;
}
