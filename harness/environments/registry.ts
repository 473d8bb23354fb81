import { DockerEnvironmentProvider } from './docker/environment.js';
import type { EnvironmentProvider } from './types.js';

/** Environments by name, as job configs name them (`environment: docker`). */
const ENVIRONMENTS: Record<string, () => EnvironmentProvider> = {
  docker: () => new DockerEnvironmentProvider(),
};

export const ENVIRONMENT_NAMES = Object.keys(ENVIRONMENTS);

export function environmentProvider(name: string): EnvironmentProvider {
  const make = ENVIRONMENTS[name];
  if (!make) throw new Error(`unknown environment '${name}'; known: ${ENVIRONMENT_NAMES.join(', ')}`);
  return make();
}
