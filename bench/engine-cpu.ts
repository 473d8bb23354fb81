import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds the Docker engine's host processes used, by kind. */
export type EngineCpu = Record<'dockerd' | 'containerd' | 'shim', number>;

const TICK = 100; // USER_HZ on Linux

interface Seen {
  kind: keyof EngineCpu;
  /** A shim's container. */
  container?: string;
  first: number;
  last: number;
}

/** The engine process kind of a pid (the engine at /var/run/docker.sock only: other engines' are left out), or null. */
function kindOf(pid: string): keyof EngineCpu | null {
  let cmd: string;
  try {
    cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return null;
  }
  const exe = cmd.split(' ')[0].split('/').at(-1) ?? '';
  if (exe === 'dockerd') return /--data-root|-H unix:\/\/\/(?!var\/run\/docker\.sock)/.test(cmd) ? null : 'dockerd';
  if (exe === 'containerd') return cmd.includes('/var/run/docker/containerd/') ? 'containerd' : null;
  if (exe.startsWith('containerd-shim')) return cmd.includes('/var/run/docker/containerd/containerd.sock') ? 'shim' : null;
  return null;
}

/** The container a shim serves (its `-id`). */
function containerOf(pid: string): string | undefined {
  try {
    return /(?:^|\0)-id\0([0-9a-f]{64})/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1];
  } catch {
    return undefined;
  }
}

/**
 * utime + stime + cutime + cstime in ticks (a process's own CPU and that of the children it reaped: for a
 * shim, the runc calls AND the container's first process with all it reaped, i.e. the container's own CPU,
 * which a caller that knows it takes out), and its start time.
 */
function statOf(pid: string): { ticks: number; start: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]), start: fields[19] };
  } catch {
    return null;
  }
}

/**
 * Samples the engine's processes (dockerd, containerd, each container's shim with the runc calls it
 * reaped) every `everyMs`, so short-lived shims are counted up to their last sample. Processes there at the
 * start count from their value then; new ones from zero.
 */
export function engineCpuMeter(everyMs = 200): { stop: () => EngineCpu & { shimOf: (containers: Iterable<string>) => number } } {
  const seen = new Map<string, Seen>();
  const others = new Set<string>();
  const sample = (initial: boolean): void => {
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      const stat = statOf(pid);
      if (!stat) continue;
      // Keyed by start time too: a reused pid is another process.
      const key = `${pid}:${stat.start}`;
      const known = seen.get(key);
      if (known) {
        known.last = stat.ticks;
        continue;
      }
      if (others.has(key)) continue;
      const kind = kindOf(pid);
      if (!kind) others.add(key);
      else seen.set(key, { kind, container: kind === 'shim' ? containerOf(pid) : undefined, first: initial ? stat.ticks : 0, last: stat.ticks });
    }
  };
  sample(true);
  const timer = setInterval(() => sample(false), everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample(false);
      const cpu: EngineCpu = { dockerd: 0, containerd: 0, shim: 0 };
      const shims = new Map<string, number>();
      for (const s of seen.values()) {
        cpu[s.kind] += (s.last - s.first) / TICK;
        if (s.container) shims.set(s.container, (shims.get(s.container) ?? 0) + (s.last - s.first) / TICK);
      }
      // The shims of the given containers alone (the engine is shared: other containers' shims are not theirs).
      const shimOf = (containers: Iterable<string>): number => [...new Set(containers)].reduce((sum, id) => sum + (shims.get(id) ?? 0), 0);
      return { ...cpu, shimOf };
    },
  };
}
