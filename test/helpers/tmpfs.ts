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

export function mountSmallDisk(kb: number): SmallDisk | null {
  if (process.getuid?.() !== 0) {
    console.warn('full-disk tests skipped: mounting a tmpfs needs root');
    return null;
  }
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
