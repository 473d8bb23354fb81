import { jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runJob } from '../../../harness/jobs/job.js';
import { jobKeyOf } from '../../../harness/jobs/labels.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { docker, dockerAvailable } from '../../../common/docker.js';
import { loadJobResults } from '../../../verifier/results.js';
import { AAR_BIN, runAar } from '../../helpers/cli.js';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';
import { writeJobConfig } from '../../helpers/jobs.js';
import { canMountSmallDisk, mountSmallDisk } from '../../helpers/tmpfs.js';

/** Faults from outside a trial: the engine, a second run, the disk. Real Docker, real processes, a real tmpfs. */
const HAVE_DOCKER = await dockerAvailable();
const describeDocker = HAVE_DOCKER ? describe : describe.skip;
if (!HAVE_DOCKER) console.warn('Docker fault tests skipped: no Docker engine answers (run images/docker-up.sh)');

jest.setTimeout(300_000);

const oneLeg = { path: EXAMPLES_DIR, ids: ['examples-linear/easy/sample_001'] };

/** Containers of one job folder (job names are shared by every checkout using the engine; folders are not). */
const containersOf = async (jobDir: string): Promise<string[]> =>
  (await docker().listContainers({ all: true, filters: { label: [`aar.job_key=${jobKeyOf(jobDir)}`] } })).map((c) => c.Id);

/** The first container of a job once it runs (polling the engine). */
async function firstContainer(jobDir: string): Promise<string> {
  for (let i = 0; i < 1200; i++) {
    const [id] = await containersOf(jobDir);
    const running = id ? await docker().getContainer(id).inspect().then((c) => c.State.Running, () => false) : false;
    if (running) return id;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no container of ${job} started`);
}

/** Waits until an agent of the job has printed `started` (the fault must hit during the agent's run, not before). */
async function agentStarted(jobDir: string): Promise<void> {
  const partial = path.join(jobDir, '.partial');
  for (let i = 0; i < 1200; i++) {
    const logs = existsSync(partial) ? readdirSync(partial).map((d) => path.join(partial, d, 'agent', 'stdout.log')) : [];
    if (logs.some((f) => existsSync(f) && readFileSync(f, 'utf8').includes('started'))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no agent of ${jobDir} started`);
}

const exitOf = (child: ReturnType<typeof spawn>): Promise<number | null> => new Promise((r) => child.once('exit', (code) => r(code)));

function spawnAar(args: string[]): { child: ReturnType<typeof spawn>; stderr: () => string } {
  const child = spawn(process.execPath, [AAR_BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  return { child, stderr: () => stderr };
}

describeDocker('faults around a trial', () => {
  const tmp = tempDir('aar-h9b-faults-');
  afterAll(() => tmp.cleanup());

  test('a container killed from outside is an infrastructure error: retried, and never scored; `aar run` exits 1 when it stays one', async () => {
    const agents = [{ name: 'command', id: 'sleeper', options: { command: 'echo started; sleep 5; printf 6 > /app/answer.txt' } }];
    const retried = writeJobConfig(tmp.dir, { name: 'h9b-kill-retry', tasks: oneLeg, agents, infra_retries: 1 }, 'kill-retry.yaml');
    const reporter = new QuietReporter();
    const reasons: string[] = [];
    reporter.retrying = (_id, _attempt, error) => void reasons.push(error.message);
    const running = runJob({ configPath: retried, reporter, retryDelayMs: 10 });
    const container = await firstContainer(path.join(tmp.dir, 'jobs', 'h9b-kill-retry'));
    await agentStarted(path.join(tmp.dir, 'jobs', 'h9b-kill-retry'));
    await docker().getContainer(container).kill();
    const summary = await running;
    expect(reasons).toEqual([expect.stringMatching(/^the container was killed from outside \(signal \w+\) during the agent run$/)]);
    const [again] = loadJobResults(summary.jobDir);
    expect(again.record.status).toBe('completed');
    expect(again.score).toMatchObject({ fa: 1 });
    // The retry is on record, with what it retried.
    expect(again.record).toMatchObject({ infra_retries: 1, infra_retry_errors: [reasons[0]] });

    const once = writeJobConfig(tmp.dir, { name: 'h9b-kill', tasks: oneLeg, agents }, 'kill.yaml');
    const { child, stderr } = spawnAar(['run', once, '--progress', 'quiet', '--no-report']);
    const killed = await firstContainer(path.join(tmp.dir, 'jobs', 'h9b-kill'));
    await agentStarted(path.join(tmp.dir, 'jobs', 'h9b-kill'));
    await docker().getContainer(killed).kill();
    expect(await exitOf(child)).toBe(1);
    expect(stderr()).toContain('aar: 1 trial ended as an infrastructure error (not scored; run again to retry them)');
    const [result] = loadJobResults(path.join(tmp.dir, 'jobs', 'h9b-kill'));
    expect(result.record).toMatchObject({ status: 'infra_error', error: expect.stringMatching(/killed from outside/), infra_retries: 0 });
    expect(result.record.infra_retry_errors).toBeUndefined();
    expect(result.score).toBeNull();
    expect(await containersOf(path.join(tmp.dir, 'jobs', 'h9b-kill'))).toEqual([]);
  });

  test('an agent killed for memory at the trial\'s own limit is the agent\'s failure, recorded as such and scored', async () => {
    const config = writeJobConfig(tmp.dir, {
      name: 'h9b-oom',
      tasks: oneLeg,
      resources: { memory_mb: 128, cpus: 1, pids: 256 },
      agents: [{ name: 'command', id: 'hog', options: { command: "node -e 'const a = []; for (;;) a.push(Buffer.alloc(1e6, 1))'" } }],
    }, 'oom.yaml');
    const summary = await runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10 });
    const [result] = loadJobResults(summary.jobDir);
    expect(result.record).toMatchObject({ status: 'agent_error', oom_killed: true, error: "out of memory: the kernel killed the agent at the trial's 128 MB limit (exit status 137)" });
    expect(result.score).toMatchObject({ fa: 0 });
  });

  test('a container paused from outside is an infrastructure error, not timed_out, ended as the engine reports the pause (not at the timeout)', async () => {
    const config = writeJobConfig(tmp.dir, {
      name: 'h9b-paused',
      tasks: oneLeg,
      // Far past the test's own wait: only the engine's pause event can end this trial in time.
      timeout_s: 600,
      agents: [{ name: 'command', id: 'sleeper', options: { command: 'echo started; sleep 30' } }],
    }, 'paused.yaml');
    const running = runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10 });
    const paused = await firstContainer(path.join(tmp.dir, 'jobs', 'h9b-paused'));
    await agentStarted(path.join(tmp.dir, 'jobs', 'h9b-paused'));
    await docker().getContainer(paused).pause();
    const pausedAt = Date.now();
    const summary = await running;
    const [result] = loadJobResults(summary.jobDir);
    expect(result.record).toMatchObject({ status: 'infra_error', error: 'the container was paused from outside during the agent run' });
    expect(Date.parse(result.record.finished_at)).toBeLessThan(pausedAt + 60_000);
    expect(await containersOf(path.join(tmp.dir, 'jobs', 'h9b-paused'))).toEqual([]);
  });

  test('a second run on a job folder in use says who holds it and exits 1; the first run is undisturbed', async () => {
    const config = writeJobConfig(tmp.dir, {
      name: 'h9b-locked',
      tasks: oneLeg,
      agents: [{ name: 'command', id: 'slow', options: { command: 'echo started; sleep 60; printf 4 > /app/answer.txt' } }],
    }, 'locked.yaml');
    const jobDir = path.join(tmp.dir, 'jobs', 'h9b-locked');
    const first = spawnAar(['run', config, '--progress', 'quiet', '--no-report']);
    const container = await firstContainer(path.join(tmp.dir, 'jobs', 'h9b-locked'));
    await agentStarted(jobDir);
    const second = runAar(['run', config, '--progress', 'quiet', '--no-report']);
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(new RegExp(`^aar: \\S+/h9b-locked is in use by process ${first.child.pid} on ${os.hostname()} \\(since [^)]+\\); wait for it, or stop it first\\n$`));
    // The first run's container and half-written trial are untouched.
    expect((await docker().getContainer(container).inspect()).State.Running).toBe(true);
    expect(readdirSync(path.join(jobDir, '.partial'))).toHaveLength(1);
    first.child.kill('SIGTERM');
    expect(await exitOf(first.child)).toBe(130);
    expect(existsSync(path.join(jobDir, '.lock'))).toBe(false);
    expect(await containersOf(path.join(tmp.dir, 'jobs', 'h9b-locked'))).toEqual([]);
  });

  (canMountSmallDisk() ? test : test.skip)('a full disk stops the job cleanly: one line, exit 1, no container or socket folder left, resumable once there is room', async () => {
    const disk = mountSmallDisk(512);
    try {
      const config = writeJobConfig(tmp.dir, {
        name: 'h9b-full',
        output: disk!.dir,
        tasks: oneLeg,
        agents: [{ name: 'command', id: 'chatty', options: { command: "head -c 3000000 /dev/zero | tr '\\0' a; printf 6 > /app/answer.txt" } }],
      }, 'full.yaml');
      const { child, stderr } = spawnAar(['run', config, '--progress', 'quiet', '--no-report']);
      expect(await exitOf(child)).toBe(1);
      expect(stderr()).toMatch(/^aar: cannot write under \S+\/h9b-full: \S+\/agent\/stdout\.log: ENOSPC: no space left on device, write; running containers removed, finished trials kept: run again to resume once the disk has room\n$/);
      expect(await containersOf(path.join(disk!.dir, 'h9b-full'))).toEqual([]);
      expect(readdirSync(os.tmpdir()).filter((d) => d.startsWith(`aar-gw-${child.pid}-`))).toEqual([]);
      disk!.resize(20 * 1024);
      const again = runAar(['run', config, '--progress', 'quiet', '--no-report']);
      expect(again.status).toBe(0);
      const [result] = loadJobResults(path.join(disk!.dir, 'h9b-full'));
      expect(result.record.status).toBe('completed');
      expect(readFileSync(path.join(result.dir, 'agent', 'stdout.log')).length).toBe(3_000_000);
    } finally {
      disk!.unmount();
    }
  });

  (canMountSmallDisk() ? test : test.skip)('a tool log the disk cannot take stops the job: a trial is never scored from a log that lost lines', async () => {
    const smallDisk = mountSmallDisk(384);
    try {
      // Under the per-line cut of the tool log (16,384 characters of arguments, trial/tool-log.ts), so each line is logged whole.
      const big = 'a'.repeat(15_000);
      const config = writeJobConfig(tmp.dir, {
        name: 'h9b-full-log',
        output: smallDisk!.dir,
        tasks: oneLeg,
        agents: [{ name: 'command', id: 'caller', options: { command: `for i in $(seq 1 40); do tools web_search '{"q": "${big}"}' >/dev/null 2>&1; done; printf 6 > /app/answer.txt` } }],
      }, 'full-log.yaml');
      await expect(runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10 })).rejects.toThrow(
        /^cannot write under \S+\/h9b-full-log: \S+\/tool_log\.jsonl: ENOSPC: no space left on device, write; running containers removed/,
      );
      expect(await containersOf(path.join(smallDisk!.dir, 'h9b-full-log'))).toEqual([]);
      expect(readdirSync(path.join(smallDisk!.dir, 'h9b-full-log')).filter((d) => !d.startsWith('.') && d !== 'job.json')).toEqual([]);
    } finally {
      smallDisk!.unmount();
    }
  });

  test('a job folder removed under a running job (ENOENT) stops it cleanly: one line, exit 1, no container left', async () => {
    const config = writeJobConfig(tmp.dir, {
      name: 'h9b-gone',
      tasks: oneLeg,
      agents: [{ name: 'command', id: 'sleeper', options: { command: 'echo started; sleep 3; printf 6 > /app/answer.txt' } }],
    }, 'gone.yaml');
    const jobDir = path.join(tmp.dir, 'jobs', 'h9b-gone');
    const { child, stderr } = spawnAar(['run', config, '--progress', 'quiet', '--no-report']);
    await agentStarted(jobDir);
    rmSync(jobDir, { recursive: true, force: true });
    expect(await exitOf(child)).toBe(1);
    expect(stderr()).toMatch(/^aar: cannot write under \S+\/h9b-gone: .*ENOENT: no such file or directory.*; running containers removed, finished trials kept: run again to resume once the disk has room\n$/);
    expect(await containersOf(jobDir)).toEqual([]);
  });
});
