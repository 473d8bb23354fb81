import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { docker } from '../../images/docker.js';
import { PACKAGE_ROOT } from '../../paths.js';
import { EXAMPLES_DIR, REPO_ROOT } from './data.js';

export const EXAMPLE_STORE = path.join(REPO_ROOT, 'tools', 'stores', 'examples');

/** Writes a job config into dir (tasks: the example legs, tools: their replay store) and returns its path. */
export function writeJobConfig(dir: string, overrides: Record<string, unknown>, file = 'job.yaml'): string {
  const config = {
    name: 'test',
    output: path.join(dir, 'jobs'),
    tasks: { path: EXAMPLES_DIR },
    agents: [{ name: 'oracle' }],
    timeout_s: 60,
    concurrency: 2,
    resources: { memory_mb: 512, cpus: 1, pids: 256 },
    tools: { mode: 'replay', store: EXAMPLE_STORE },
    infra_retries: 0,
    ...overrides,
  };
  const configPath = path.join(dir, file);
  writeFileSync(configPath, stringify(config));
  return configPath;
}

/**
 * Containers of AAR Harness still present (running or not) that this checkout started, optionally of one
 * job: other checkouts on the same engine run jobs of the same names.
 */
export async function harnessContainers(jobName?: string): Promise<string[]> {
  const label = [`aar.checkout=${PACKAGE_ROOT}`, ...(jobName ? [`aar.job=${jobName}`] : ['aar-harness=1'])];
  return (await docker().listContainers({ all: true, filters: { label } })).map((c) => c.Id);
}
