import { defineEnvironment } from '../define.js';

/** Trials in this machine's Docker engine, one container each (environment.ts). */
defineEnvironment({
  name: 'docker',
  leftovers: 'containers',
  async create() {
    const { DockerEnvironmentProvider } = await import('./environment.js');
    return new DockerEnvironmentProvider();
  },
});
