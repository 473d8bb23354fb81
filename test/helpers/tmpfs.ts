import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A real small file system (tmpfs) for full-disk tests: needs root, as on CI; null (with a note) elsewhere. */
export interface SmallDisk {
  dir: string;
  /** Changes its size (e.g. to give room back, as freeing a disk would). */
  resize(kb: number): void;
  unmount(): void;
}

const mount = (args: string[]): { ok: boolean; error: string } => {
  const r = spawnSync('mount', args, { encoding: 'utf8' });
  return { ok: r.status === 0, error: (r.stderr || r.error?.message || '').trim() };
};

let available: boolean | undefined;

/** Whether small disks can be mounted here (root, and mount allowed); says why not once. Mounts nothing that stays. */
export function canMountSmallDisk(): boolean {
  if (available !== undefined) return available;
  if (process.getuid?.() !== 0) {
    console.warn('full-disk tests skipped: mounting a tmpfs needs root');
    return (available = false);
  }
  const probe = mountSmallDisk(16);
  if (probe) probe.unmount();
  return (available = probe !== null);
}

/** Mounts a tmpfs of `kb` KB; call it inside the test and unmount in its finally. Null (with a note) where it cannot. */
export function mountSmallDisk(kb: number): SmallDisk | null {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'aar-small-disk-'));
  const mounted = mount(['-t', 'tmpfs', '-o', `size=${kb}k`, 'aar-small-disk', dir]);
  if (!mounted.ok) {
    rmSync(dir, { recursive: true, force: true });
    console.warn(`full-disk tests skipped: cannot mount a tmpfs (${mounted.error})`);
    return null;
  }
  return {
    dir,
    resize: (size) => {
      const r = mount(['-o', `remount,size=${size}k`, dir]);
      if (!r.ok) throw new Error(`remount ${dir}: ${r.error}`);
    },
    unmount: () => {
      spawnSync('umount', [dir]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
