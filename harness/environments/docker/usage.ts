import { readFileSync } from 'node:fs';
import { docker } from '../../../common/docker.js';

/**
 * What this process's trials cost the Docker engine, for `npm run bench:trials`: requests made to the
 * engine's API, and CPU time of the trial containers' own processes (read from each container's cgroup
 * just before its removal; cgroup v1 with the cgroupfs driver, else not counted).
 */
export const dockerUsage = { apiCalls: 0, containerCpuNs: 0, containersMeasured: 0, containerIds: [] as string[] };

let counting = false;
/** Containers already measured (a container is measured once, at its result or before its removal). */
const measured = new Set<string>();

/** Counts every request dockerode makes from now on (its modem's dial is the one way out). */
export function countEngineCalls(): void {
  if (counting) return;
  counting = true;
  const modem = docker().modem as unknown as { dial: (...args: unknown[]) => unknown };
  const dial = modem.dial.bind(modem);
  modem.dial = (...args: unknown[]) => {
    dockerUsage.apiCalls++;
    return dial(...args);
  };
}

const CGROUP_CPU = ['/sys/fs/cgroup/cpuacct/docker/%/cpuacct.usage', '/sys/fs/cgroup/system.slice/docker-%.scope/cpu.stat'];

/** Adds a container's CPU time so far to dockerUsage (once, while it runs: its cgroup goes when it stops); silent where cgroups are elsewhere. */
export function recordContainerCpu(containerId: string): void {
  if (!counting || measured.has(containerId)) return;
  for (const pattern of CGROUP_CPU) {
    try {
      const text = readFileSync(pattern.replace('%', containerId), 'utf8');
      const ns = pattern.endsWith('cpu.stat') ? Number(/usage_usec (\d+)/.exec(text)?.[1] ?? 0) * 1000 : Number(text.trim());
      measured.add(containerId);
      dockerUsage.containerCpuNs += ns;
      dockerUsage.containersMeasured++;
      dockerUsage.containerIds.push(containerId);
      return;
    } catch {
      // not this layout
    }
  }
}
