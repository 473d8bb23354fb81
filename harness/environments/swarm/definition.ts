import { defineEnvironment } from '../define.js';
import { DEFAULT_SWARM_SETTINGS, swarmSettingsSchema, type SwarmSettings } from './settings.js';

/** Trials spread over a Docker Swarm, one service each (environment.ts); its settings are the config's `swarm:`. */
defineEnvironment<SwarmSettings>({
  name: 'swarm',
  leftovers: 'services and networks',
  settings: swarmSettingsSchema,
  async create(settings) {
    const { SwarmEnvironmentProvider } = await import('./environment.js');
    return new SwarmEnvironmentProvider(settings ?? DEFAULT_SWARM_SETTINGS);
  },
  planNote: (settings) =>
    settings?.registry
      ? `images pushed to the registry ${settings.registry}, which the nodes pull from`
      : Object.keys(settings?.node_engines ?? {}).length
        ? `images loaded into the engines of ${Object.keys(settings!.node_engines).join(', ')} (docker save | docker load)`
        : "images on the manager's engine only (no registry and no node_engines: other nodes must have them)",
});
