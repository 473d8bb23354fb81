import { DockerEnvironmentProvider } from './docker/environment.js';
import { DEFAULT_SWARM_SETTINGS, type SwarmSettings } from './swarm/settings.js';
import { SwarmEnvironmentProvider } from './swarm/environment.js';
import type { EnvironmentProvider } from './types.js';

/** What a job config says about its environments beyond the name. */
export interface EnvironmentOptions {
  swarm?: SwarmSettings;
}

/** Environments by name, as job configs name them (`environment: docker`). */
const ENVIRONMENTS: Record<string, (options: EnvironmentOptions) => EnvironmentProvider> = {
  docker: () => new DockerEnvironmentProvider(),
  swarm: (options) => new SwarmEnvironmentProvider(options.swarm ?? DEFAULT_SWARM_SETTINGS),
};

export const ENVIRONMENT_NAMES = Object.keys(ENVIRONMENTS);

export function environmentProvider(name: string, options: EnvironmentOptions = {}): EnvironmentProvider {
  const make = ENVIRONMENTS[name];
  if (!make) throw new Error(`unknown environment '${name}'; known: ${ENVIRONMENT_NAMES.join(', ')}`);
  return make(options);
}
