import { execa } from 'execa';
import { existsSync, readFileSync } from 'node:fs';

/** What the tests' own Docker engines share: the private engine (private-engine.ts) and the two-node cluster. */

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether a process of this id still runs (signal 0 only checks). */
export const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Why a test needing root and these programs cannot run here (`<what> skipped: ...`), or null when it can. */
export async function missingForEngineTest(what: string, bins: string[], rootBecause: string): Promise<string | null> {
  if (process.getuid?.() !== 0) return `${what} skipped: it needs root (${rootBecause})`;
  for (const bin of bins) {
    if ((await execa('sh', ['-c', `command -v ${bin}`], { reject: false })).exitCode !== 0) return `${what} skipped: ${bin} is not installed`;
  }
  return null;
}

/** Waits up to 30 s for a dockerd to answer on its socket; else throws `failure()`. */
export async function waitForEngine(socket: string, failure: () => string): Promise<void> {
  for (let i = 0; i < 120; i++) {
    if (existsSync(socket) && (await execa('docker', ['-H', `unix://${socket}`, 'version'], { reject: false })).exitCode === 0) return;
    await sleep(250);
  }
  throw new Error(failure());
}

/** The last 15 lines of an engine's log file. */
export function logTail(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8').split('\n').slice(-15).join('\n') : '(no log)';
}

/** `docker save` from the shared engine into another (one stream: shared layers travel once). */
export async function loadImagesInto(host: string, tags: string[]): Promise<void> {
  await execa('docker', ['save', ...tags], { buffer: false, stderr: 'inherit' }).pipe('docker', ['-H', host, 'load', '-q']);
}
