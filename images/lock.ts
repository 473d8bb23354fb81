import { closeSync, openSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const STALE_MS = 15 * 60_000;

/**
 * Runs fn while holding a lock file, so two processes (parallel test workers, two jobs) do not build the
 * same image at once: the second waits, then finds the image built. A lock older than 15 minutes is
 * taken to be left by a killed process.
 */
export async function withFileLock<T>(name: string, fn: () => Promise<T>): Promise<T> {
  const file = path.join(os.tmpdir(), `aar-lock-${name.replace(/[^A-Za-z0-9._-]/g, '_')}`);
  for (;;) {
    try {
      closeSync(openSync(file, 'wx'));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(file).mtimeMs > STALE_MS) rmSync(file, { force: true });
      } catch {
        // removed meanwhile: try again
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(file, { force: true });
  }
}
