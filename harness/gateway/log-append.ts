import { appendFileSync } from 'node:fs';
import { hostSecrets } from '../../common/secrets.js';

/** Host log files whose append failed (a full disk), by path, until the trial runner takes the failure. */
const failures = new Map<string, NodeJS.ErrnoException>();

/**
 * Appends to a trial's log on the host, every secret masked (common/secrets.ts); returns the bytes written.
 * A failure is thrown (the request gets an error) and also kept, so the trial runner learns that the log lost
 * a line and stops the job instead of scoring a partial log.
 */
export function appendLogLine(path: string, text: string): number {
  const masked = hostSecrets.text(text);
  try {
    appendFileSync(path, masked);
    return Buffer.byteLength(masked);
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (!e.message.includes(path)) e.message = `${path}: ${e.message}`;
    if (!failures.has(path)) failures.set(path, e);
    throw e;
  }
}

/** The first failed append to this log since the last call, if any (and forgets it). */
export function takeLogFailure(path: string | undefined): NodeJS.ErrnoException | undefined {
  if (path === undefined) return undefined;
  const failure = failures.get(path);
  failures.delete(path);
  return failure;
}
