import http from 'node:http';
import { docker } from '../../images/docker.js';

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

function localSocket(env: NodeJS.ProcessEnv): string | undefined {
  const host = env.DOCKER_HOST;
  if (!host) return '/var/run/docker.sock';
  return host.startsWith('unix://') ? host.slice('unix://'.length) : undefined;
}

function getStatus(socketPath: string, urlPath: string): Promise<number | null> {
  return new Promise((resolve) => {
    const request = http.get({ socketPath, path: urlPath, timeout: WAIT_MS }, (response) => {
      response.resume();
      resolve(response.statusCode ?? null);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(null));
  });
}

async function withinWait(question: Promise<boolean>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), WAIT_MS)));
  try {
    return await Promise.race([question, late]);
  } finally {
    clearTimeout(timer);
  }
}

export function engineProbe(env: NodeJS.ProcessEnv = process.env): EngineProbe {
  const socket = localSocket(env);
  if (socket) {
    return {
      answers: async () => (await getStatus(socket, '/_ping')) === 200,
      hasImage: async (tag) => (await getStatus(socket, `/images/${encodeURIComponent(tag)}/json`)) === 200,
    };
  }
  return {
    answers: () => withinWait(docker().ping().then(() => true, () => false)),
    hasImage: (tag) => withinWait(docker().getImage(tag).inspect().then(() => true, () => false)),
  };
}
