import type { ChildProcess } from 'node:child_process';

/** Kills a detached child and everything it started (its process group); the child alone if the group is gone. */
export function killProcessGroup(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
}
