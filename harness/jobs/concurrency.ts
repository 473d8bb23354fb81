import os from 'node:os';
import type { JobConfig } from '../config/schema.js';

/** Memory the host keeps for itself (the harness, the engine, the desktop) when `concurrency: auto` divides it. */
export const HOST_RESERVE_MB = 2048;

/** What `concurrency: auto` used on a swarm, where this machine's size says nothing about the cluster's. */
const SWARM_AUTO = 4;

export interface HostSize {
  cores: number;
  memoryMb: number;
}

export interface ConcurrencyChoice {
  /** Trials at a time. */
  value: number;
  auto: boolean;
  /** Why this number, for the plan and the run's first line. */
  reason: string;
}

export const thisHost = (): HostSize => ({ cores: os.availableParallelism(), memoryMb: Math.floor(os.totalmem() / 2 ** 20) });

const gib = (mb: number): string => `${(mb / 1024).toFixed(mb % 1024 ? 1 : 0)} GiB`;

/**
 * The trials a job runs at a time. A number in the config is taken as it is; `auto` (the default) is as many
 * as this machine's cores and memory hold at each trial's `resources` limits, and at least one.
 */
export function chooseConcurrency(config: Pick<JobConfig, 'concurrency' | 'resources' | 'environment'>, host: HostSize = thisHost()): ConcurrencyChoice {
  if (config.concurrency !== 'auto') return { value: config.concurrency, auto: false, reason: 'set by concurrency' };
  if (config.environment !== 'docker') return { value: SWARM_AUTO, auto: true, reason: `auto on environment ${config.environment}: ${SWARM_AUTO}; set concurrency for your nodes` };
  const { cpus, memory_mb: memoryMb } = config.resources;
  const byCores = Math.max(1, Math.floor(host.cores / cpus));
  const spare = Math.max(0, host.memoryMb - HOST_RESERVE_MB);
  const byMemory = Math.max(1, Math.floor(spare / memoryMb));
  return {
    value: Math.min(byCores, byMemory),
    auto: true,
    reason:
      `auto: ${host.cores} cores / ${cpus} ${cpus === 1 ? 'CPU' : 'CPUs'} a trial = ${byCores}; ` +
      `${gib(spare)} of memory (${gib(host.memoryMb)} less ${gib(HOST_RESERVE_MB)} for the host) / ${memoryMb} MB a trial = ${byMemory}`,
  };
}
