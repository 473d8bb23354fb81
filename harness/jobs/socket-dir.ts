import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { connect } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const PREFIX = 'aar-gw-';
export const GATEWAY_SOCKET_NAME = 'gateway.sock';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** True when something answers on the socket (a live gateway of another run). */
function answers(socket: string): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect(socket);
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });
}

/** A fresh folder for the gateway's socket, named after this process so a later run can tell it is stale. */
export function makeSocketDir(tmp = os.tmpdir()): string {
  return mkdtempSync(path.join(tmp, `${PREFIX}${process.pid}-`));
}

/**
 * Removes the socket folders of runs that were killed (kill -9 skips every clean-up): those whose process
 * is gone, and older unnamed ones where nothing answers on the socket any more. Returns the folders removed.
 */
export async function removeStaleSocketDirs(tmp = os.tmpdir()): Promise<string[]> {
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(tmp).filter((n) => n.startsWith(PREFIX));
  } catch {
    return removed;
  }
  for (const name of names) {
    const dir = path.join(tmp, name);
    const pid = /^aar-gw-(\d+)-/.exec(name)?.[1];
    try {
      if (pid !== undefined) {
        if (Number(pid) === process.pid || alive(Number(pid))) continue;
      } else {
        // Made by a version that did not name its folders: stale when a minute old and silent.
        if (Date.now() - statSync(dir).mtimeMs < 60_000 || (await answers(path.join(dir, GATEWAY_SOCKET_NAME)))) continue;
      }
      rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // removed meanwhile, or not ours to remove
    }
  }
  return removed;
}
