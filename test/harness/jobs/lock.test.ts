import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { JobLocked, jobLockHolder, LOCK_FILE, lockJobDir, processStart } from '../../../harness/jobs/lock.js';
import { makeSocketDir, removeStaleSocketDirs } from '../../../harness/jobs/socket-dir.js';
import { tempDir } from '../../helpers/data.js';
import { canMountSmallDisk, mountSmallDisk } from '../../helpers/tmpfs.js';

/** The pid of a process that has ended. */
const deadPid = (): number => spawnSync(process.execPath, ['-e', '0']).pid!;

describe('the job folder lock', () => {
  test('one holder at a time; the second is told who holds it; released, it can be taken again', () => {
    const { dir, cleanup } = tempDir();
    try {
      const lock = lockJobDir(dir, 'aar run job.yaml');
      const holder = JSON.parse(readFileSync(path.join(dir, LOCK_FILE), 'utf8'));
      expect(holder).toMatchObject({ pid: process.pid, host: os.hostname(), process_start: processStart(process.pid), command: 'aar run job.yaml' });
      expect(() => lockJobDir(dir)).toThrow(JobLocked);
      expect(() => lockJobDir(dir)).toThrow(new RegExp(`^${dir} is in use by process ${process.pid} on ${os.hostname()} \\(since .*: aar run job\\.yaml\\); wait for it, or stop it first$`));
      expect(jobLockHolder(dir)?.pid).toBe(process.pid);
      lock.release();
      expect(existsSync(path.join(dir, LOCK_FILE))).toBe(false);
      expect(jobLockHolder(dir)).toBeUndefined();
      lockJobDir(dir).release();
      expect(readdirSync(dir)).toEqual([]);
    } finally {
      cleanup();
    }
  });

  test("a dead process's lock is taken over; a reused pid (other start time) counts as dead; another host's is respected", () => {
    const { dir, cleanup } = tempDir();
    try {
      const file = path.join(dir, LOCK_FILE);
      const stale = { pid: deadPid(), host: os.hostname(), started_at: '2026-11-26T00:00:00.000Z', process_start: '1' };
      writeFileSync(file, JSON.stringify(stale));
      const lock = lockJobDir(dir);
      expect(lock.tookOver).toEqual(stale);
      lock.release();
      // Our own pid, but a different start time: the process that took the lock is gone.
      writeFileSync(file, JSON.stringify({ ...stale, pid: process.pid, process_start: '1' }));
      expect(lockJobDir(dir).tookOver?.pid).toBe(process.pid);
      mkdirSync(path.join(dir, 'x'));
      writeFileSync(file, JSON.stringify({ ...stale, host: 'elsewhere' }));
      expect(() => lockJobDir(dir)).toThrow(/in use by process \d+ on elsewhere/);
      writeFileSync(file, '{"pid": 12');
      expect(lockJobDir(dir).tookOver).toBeUndefined();
    } finally {
      cleanup();
    }
  });
});

describe("the gateway's socket folders", () => {
  (canMountSmallDisk() ? test : test.skip)('a full disk at start: one line naming the lock, and no .lock.<pid>.tmp left behind', () => {
    const disk = mountSmallDisk(64);
    try {
      const jobDir = path.join(disk!.dir, 'job');
      mkdirSync(jobDir);
      // Every block of the small disk taken, as a disk that filled up before the run started.
      spawnSync('dd', ['if=/dev/zero', `of=${path.join(disk!.dir, 'filler')}`, 'bs=4k', 'count=64']);
      expect(() => lockJobDir(jobDir)).toThrow(`${path.join(jobDir, LOCK_FILE)}: cannot take the job's lock: ENOSPC: no space left on device, write`);
      expect(readdirSync(jobDir)).toEqual([]);
    } finally {
      disk!.unmount();
    }
  });

  test('folders of processes that are gone are removed at the next start; live ones stay', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const mine = makeSocketDir(dir);
      expect(path.basename(mine)).toMatch(new RegExp(`^aar-gw-${process.pid}-`));
      const dead = path.join(dir, `aar-gw-${deadPid()}-abc123`);
      mkdirSync(dead);
      writeFileSync(path.join(dead, 'gateway.sock'), '');
      const unrelated = path.join(dir, 'aar-other');
      mkdirSync(unrelated);
      // Folders of earlier versions carry no pid: removed once a minute old with nothing answering.
      const oldSilent = path.join(dir, 'aar-gw-Xy12Ab');
      const oldLive = path.join(dir, 'aar-gw-Zz34Cd');
      mkdirSync(oldSilent);
      mkdirSync(oldLive);
      const server = createServer((c) => c.end());
      await new Promise<void>((r) => server.listen(path.join(oldLive, 'gateway.sock'), r));
      const hourAgo = new Date(Date.now() - 3600_000);
      utimesSync(oldSilent, hourAgo, hourAgo);
      utimesSync(oldLive, hourAgo, hourAgo);
      try {
        expect((await removeStaleSocketDirs(dir)).sort()).toEqual([dead, oldSilent].sort());
      } finally {
        await new Promise((r) => server.close(r));
      }
      expect(readdirSync(dir).sort()).toEqual([path.basename(mine), 'aar-gw-Zz34Cd', 'aar-other'].sort());
    } finally {
      cleanup();
    }
  });
});
