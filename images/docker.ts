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
