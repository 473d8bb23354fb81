import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { docker } from '../../common/docker.js';
import { PACKAGE_ROOT } from '../../paths.js';
import { loadJobResults } from '../../verifier/results.js';
import { AAR_BIN } from './cli.js';
import { EXAMPLES_DIR, REPO_ROOT } from './data.js';

export const EXAMPLE_STORE = path.join(REPO_ROOT, 'tools', 'stores', 'examples');

/** Job settings for one example leg whose agent writes 3, then sleeps past its 3 s timeout. */
export const SLEEPER_JOB = {
  tasks: { path: EXAMPLES_DIR, limit: 1 },
  agents: [{ name: 'command', id: 'sleeper', options: { command: 'echo 3 > /app/answer.txt; sleep 60' } }],
  timeout_s: 3,
};

/** The one trial of a SLEEPER_JOB: timed out at its timeout (within 2 s), and scored with the answer it wrote. */
export function expectSleeperTimedOut(jobDir: string): void {
  const [result] = loadJobResults(jobDir);
  expect(result.record.status).toBe('timed_out');
  expect(result.record.timings.agent_s!).toBeGreaterThanOrEqual(3);
  expect(result.record.timings.agent_s!).toBeLessThan(5);
  expect(result.score).toMatchObject({ timed_out: true, agent_answer: '3' });
}

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

/** Trial folders of a job that are finished (hold a trial.json). */
export function finishedTrialDirs(jobDir: string): string[] {
  return existsSync(jobDir) ? readdirSync(jobDir).filter((d) => existsSync(path.join(jobDir, d, 'trial.json'))) : [];
}

/**
 * Runs `aar run CONFIG` as a process and kills it with SIGKILL once `trials` trials have finished. Returns
 * the killed process's pid and the finished trials with their start times (a resume must keep them).
 */
export async function killRunAfter(config: string, jobDir: string, trials: number): Promise<{ pid: number; startedAt: Record<string, string> }> {
  const child = spawn(process.execPath, [AAR_BIN, 'run', config, '--progress', 'lines', '--no-report'], { stdio: 'ignore' });
  for (let i = 0; i < 1200 && finishedTrialDirs(jobDir).length < trials; i++) await new Promise((r) => setTimeout(r, 100));
  child.kill('SIGKILL');
  await new Promise((r) => child.once('exit', r));
  const before = finishedTrialDirs(jobDir);
  return {
    pid: child.pid!,
    startedAt: Object.fromEntries(before.map((d) => [d, JSON.parse(readFileSync(path.join(jobDir, d, 'trial.json'), 'utf8')).started_at as string])),
  };
}
