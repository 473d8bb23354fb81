import { docker, engineGetStatus, localDockerSocket, withinWait } from '../../common/docker.js';

/**
 * Read-only questions to the Docker engine for `aar plan`, kept cheap: over a local socket they are two
 * plain HTTP GETs (the plan must stay under 2 s, and loading dockerode alone costs a good part of that);
 * any other DOCKER_HOST goes through dockerode.
 */
export interface EngineProbe {
  /** False when no engine answers within the wait. */
  answers(): Promise<boolean>;
  hasImage(tag: string): Promise<boolean>;
}

const WAIT_MS = 1000;

export function engineProbe(env: NodeJS.ProcessEnv = process.env): EngineProbe {
  const socket = localDockerSocket(env);
  if (socket) {
    return {
      answers: async () => (await engineGetStatus(socket, '/_ping', WAIT_MS)) === 200,
      hasImage: async (tag) => (await engineGetStatus(socket, `/images/${encodeURIComponent(tag)}/json`, WAIT_MS)) === 200,
    };
  }
  return {
    answers: () => withinWait(docker().ping().then(() => true, () => false), WAIT_MS),
    hasImage: (tag) => withinWait(docker().getImage(tag).inspect().then(() => true, () => false), WAIT_MS),
  };
}
