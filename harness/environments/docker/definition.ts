import { defineEnvironment } from '../define.js';

/** Trials in this machine's Docker engine, one container each (environment.ts). */
defineEnvironment({
  name: 'docker',
  leftovers: 'containers',
  async create() {
    const { DockerEnvironmentProvider } = await import('./environment.js');
    return new DockerEnvironmentProvider();
  },
  conformance: {
    async unavailable() {
      const { dockerAvailable } = await import('../../../common/docker.js');
      return (await dockerAvailable()) ? undefined : 'no Docker engine answers (run images/docker-up.sh)';
    },
  },
});
