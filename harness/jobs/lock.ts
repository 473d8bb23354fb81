import { linkSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

export const LOCK_FILE = '.lock';

const LockSchema = z.object({ pid: z.number().int(), host: z.string(), started_at: z.string(), process_start: z.string().nullable(), command: z.string().optional() });
export type LockHolder = z.infer<typeof LockSchema>;

/** When a process started, as the kernel counts it (Linux: /proc/<pid>/stat field 22), so a reused pid is told apart. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function isAlive(holder: LockHolder): boolean {
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const start = processStart(holder.pid);
  return holder.process_start === null || start === null || start === holder.process_start;
}

export class JobLocked extends Error {
  constructor(readonly jobDir: string, readonly holder: LockHolder) {
    super(`${jobDir} is in use by process ${holder.pid} on ${holder.host} (since ${holder.started_at}${holder.command ? `: ${holder.command}` : ''}); wait for it, or stop it first`);
  }
}

function readHolder(file: string): LockHolder | undefined {
  try {
    return LockSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    return undefined;
  }
}

const sameHolder = (a: LockHolder | undefined, b: LockHolder | undefined): boolean => JSON.stringify(a) === JSON.stringify(b);

export interface JobLock {
  /** A lock of a killed run that this one took over, if any. */
  tookOver: LockHolder | undefined;
  release(): void;
}

/**
 * Takes the job folder for this process: `<job>/.lock` names the holder (pid, host, start time). A lock
 * whose process is gone (a run killed with -9) is taken over; a live holder's, or one on another host,
 * makes this throw JobLocked. A lock file that cannot be read (damaged from outside) is taken over too.
 */
export function lockJobDir(jobDir: string, command = process.argv.slice(1).map((a) => path.basename(a)).join(' ')): JobLock {
  const file = path.join(jobDir, LOCK_FILE);
  const me: LockHolder = { pid: process.pid, host: os.hostname(), started_at: new Date().toISOString(), process_start: processStart(process.pid), command };
  let tookOver: LockHolder | undefined;
  for (let attempt = 0; attempt < 5; attempt++) {
    // Written whole beside it, then linked into place: the lock appears complete or not at all.
    const mine = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(mine, JSON.stringify(me) + '\n');
    } catch (error) {
      // A full disk: nothing of this attempt stays behind, and the one line names the lock.
      rmSync(mine, { force: true });
      const e = error as NodeJS.ErrnoException;
      e.message = `${file}: cannot take the job's lock: ${e.message}`;
      throw e;
    }
    try {
      linkSync(mine, file);
      rmSync(mine, { force: true });
      return {
        tookOver,
        release: () => {
          if (sameHolder(readHolder(file), me)) rmSync(file, { force: true });
        },
      };
    } catch (error) {
      rmSync(mine, { force: true });
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(file);
    if (holder && (holder.host !== me.host || isAlive(holder))) throw new JobLocked(jobDir, holder);
    // Stale: move it aside, and check that what moved is the stale lock (not one another run just took).
    const aside = `${file}.stale-${process.pid}-${attempt}`;
    try {
      renameSync(file, aside);
    } catch {
      continue;
    }
    const moved = readHolder(aside);
    if (!sameHolder(moved, holder)) {
      try {
        renameSync(aside, file);
      } catch {
        // the other run's lock is lost only if it was also replaced meanwhile; its own check finds ours
      }
      if (moved) throw new JobLocked(jobDir, moved);
    }
    rmSync(aside, { force: true });
    tookOver = holder;
  }
  throw new Error(`${file}: cannot take the job's lock (it keeps changing)`);
}

/** Removes a job folder's lock when its process is gone (this host only); returns the holder it named. */
export function removeStaleLock(jobDir: string): LockHolder | undefined {
  const file = path.join(jobDir, LOCK_FILE);
  const holder = readHolder(file);
  if (!holder || holder.host !== os.hostname() || isAlive(holder)) return undefined;
  rmSync(file, { force: true });
  return holder;
}

/** The live holder of a job folder's lock, if any (for commands that must not disturb a running job). */
export function jobLockHolder(jobDir: string): LockHolder | undefined {
  const holder = readHolder(path.join(jobDir, LOCK_FILE));
  return holder && (holder.host !== os.hostname() || isAlive(holder)) ? holder : undefined;
}
