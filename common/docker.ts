import http from 'node:http';
import { createRequire } from 'node:module';
import type Docker from 'dockerode';

/** The Docker client (DOCKER_HOST or the local socket), made once per process. */
let client: Docker | undefined;

/** dockerode is loaded on first use: commands that never talk to the engine (aar plan) skip its load time. */
export function docker(): Docker {
  client ??= new (createRequire(import.meta.url)('dockerode') as typeof Docker)();
  return client;
}

/** True when a Docker engine answers; never throws. */
export async function dockerAvailable(): Promise<boolean> {
  try {
    await docker().ping();
    return true;
  } catch {
    return false;
  }
}

/** How long a ping may take before the engine counts as not answering (a job asking whether its engine is there). */
export const ENGINE_PING_MS = 3000;

/** The engine's Unix socket: DOCKER_HOST's when it names one, the default one when it is unset; else undefined. */
export function localDockerSocket(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const host = env.DOCKER_HOST;
  if (!host) return '/var/run/docker.sock';
  return host.startsWith('unix://') ? host.slice('unix://'.length) : undefined;
}

/**
 * The status of a plain GET to the engine over its Unix socket, on a connection of its own (an engine
 * shutting down still serves the connections it kept alive, but accepts no new one); null when it does not
 * answer within `waitMs`.
 */
export function engineGetStatus(socketPath: string, urlPath: string, waitMs: number): Promise<number | null> {
  return new Promise((resolve) => {
    const request = http.get({ socketPath, path: urlPath, timeout: waitMs, agent: false }, (response) => {
      response.resume();
      resolve(response.statusCode ?? null);
    });
    request.on('timeout', () => request.destroy());
    request.on('error', () => resolve(null));
  });
}

/** `question`'s answer, or false when it takes longer than `waitMs`. */
export async function withinWait(question: Promise<boolean>, waitMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), waitMs)));
  try {
    return await Promise.race([question, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** True when the engine answers a ping within `waitMs` (on a new connection where it is a local socket); never throws. */
export async function engineAnswers(waitMs = ENGINE_PING_MS): Promise<boolean> {
  const socket = localDockerSocket();
  if (socket) return (await engineGetStatus(socket, '/_ping', waitMs)) === 200;
  return withinWait(dockerAvailable(), waitMs);
}

export const NO_DOCKER_HINT = 'no Docker engine answers: run `sudo images/docker-up.sh` (installs and starts one on Debian), or start Docker and retry';

export async function requireDocker(): Promise<Docker> {
  if (!(await dockerAvailable())) throw new Error(NO_DOCKER_HINT);
  return docker();
}

export async function imageExists(tag: string): Promise<boolean> {
  try {
    await docker().getImage(tag).inspect();
    return true;
  } catch {
    return false;
  }
}

/** Follows a Docker progress stream (build, pull) to its end; an error in the stream is thrown. */
export function followProgress(stream: NodeJS.ReadableStream, onLine?: (line: string) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: string | undefined;
    docker().modem.followProgress(
      stream,
      (error: Error | null) => (error ? reject(error) : failure ? reject(new Error(failure)) : resolve()),
      (event: { stream?: string; status?: string; error?: string; errorDetail?: { message?: string } }) => {
        if (event.error) failure = event.errorDetail?.message ?? event.error;
        const line = (event.stream ?? event.status ?? '').trimEnd();
        if (line && onLine) onLine(line);
      },
    );
  });
}
