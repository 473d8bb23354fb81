import { jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { docker } from '../../../common/docker.js';
import { loadJobResults } from '../../../verifier/results.js';
import { AAR_BIN } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/data.js';
import { expectSleeperTimedOut, finishedTrialDirs, killRunAfter, SLEEPER_JOB, writeJobConfig } from '../../helpers/jobs.js';
import { settledLeftovers, swarmManagerHere } from './swarm-helpers.js';

/** Jobs on a one-node swarm (.ci/run: docker swarm init --advertise-addr 127.0.0.1). */
const HAVE_SWARM = await swarmManagerHere();
if (!HAVE_SWARM) console.warn('swarm job tests skipped: this engine is not a swarm manager (docker swarm init --advertise-addr 127.0.0.1)');
const describeSwarm = HAVE_SWARM ? describe : describe.skip;

jest.setTimeout(400_000);

const PREFIX = `aar-test-sj${process.pid}-`;
const onSwarm = { environment: 'swarm', swarm: { name_prefix: PREFIX } };
const run = (configPath: string, extra: Partial<Parameters<typeof runJob>[0]> = {}) => runJob({ configPath, reporter: new QuietReporter(), retryDelayMs: 10, ...extra });

const scores = (jobDir: string) =>
  Object.fromEntries(
    loadJobResults(jobDir).map((r) => {
      const { wall_s: _w, ...rest } = r.score ?? {};
      return [path.basename(r.dir), { status: r.record.status, score: rest }];
    }),
  );

/** Services of this test's jobs still on the swarm. */
async function services(): Promise<string[]> {
  const all = (await docker().listServices()) as unknown as { Spec?: { Name?: string } }[];
  return all.map((s) => s.Spec?.Name ?? '').filter((n) => n.startsWith(PREFIX));
}

describeSwarm('jobs on a one-node swarm', () => {
  const tmp = tempDir('aar-swarm-job-');
  afterAll(async () => {
    expect(await settledLeftovers(PREFIX)).toEqual([]);
    tmp.cleanup();
  });

  test('oracle and random: the same scores as on docker; each trial says which node ran it; nothing is left', async () => {
    const agents = [{ name: 'oracle' }, { name: 'random' }];
    const local = await run(writeJobConfig(tmp.dir, { name: `aar-test-sj-docker`, agents }, 'docker.yaml'));
    const swarm = await run(writeJobConfig(tmp.dir, { name: `aar-test-sj-swarm`, agents, ...onSwarm }, 'swarm.yaml'));
    expect(swarm).toMatchObject({ planned: 6, ran: 6, infraErrors: 0, interrupted: false });
    expect(scores(swarm.jobDir)).toEqual(scores(local.jobDir));
    const results = loadJobResults(swarm.jobDir);
    expect(results.filter((r) => r.record.agent.id === 'oracle').every((r) => (r.score as { fa?: number }).fa === 1)).toBe(true);
    const hostname = ((await docker().info()) as { Name: string }).Name;
    for (const r of results) expect(r.record.environment).toEqual({ name: 'swarm', node: hostname });
    expect(readdirSync(results[0].dir).sort()).toEqual(['agent', 'answer.txt', 'instruction.md', 'leg.json', 'score.json', 'tool_log.jsonl', 'trajectory.json', 'trial.json']);
    expect(await services()).toEqual([]);
  });

  test('an agent sleeping past the timeout is killed at it: timed_out, scored with its answer', async () => {
    const summary = await run(writeJobConfig(tmp.dir, { name: 'aar-test-sj-sleepy', ...SLEEPER_JOB, ...onSwarm }, 'sleepy.yaml'));
    expectSleeperTimedOut(summary.jobDir);
    expect(await services()).toEqual([]);
  });

  test('kill -9 of the harness mid-job: the rerun removes the orphaned services, loses no finished trial, and finishes', async () => {
    const config = writeJobConfig(tmp.dir, {
      name: 'aar-test-sj-killed',
      agents: [{ name: 'command', id: 'slow', options: { command: 'sleep 2; printf 4 > /app/answer.txt' } }],
      attempts: 3,
      concurrency: 2,
      ...onSwarm,
    }, 'killed.yaml');
    const jobDir = path.join(tmp.dir, 'jobs', 'aar-test-sj-killed');
    const { startedAt } = await killRunAfter(config, jobDir, 2);
    const before = Object.keys(startedAt);
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.length).toBeLessThan(9);
    expect((await services()).length).toBeGreaterThan(0);

    const summary = await run(config);
    expect(summary.leftoversRemoved).toBeGreaterThan(0);
    expect(summary.skipped).toBe(before.length);
    expect(summary.ran + summary.skipped).toBe(9);
    for (const d of before) expect(JSON.parse(readFileSync(path.join(jobDir, d, 'trial.json'), 'utf8')).started_at).toBe(startedAt[d]);
    expect(finishedTrialDirs(jobDir)).toHaveLength(9);
    expect(await services()).toEqual([]);
  });

  test('SIGTERM removes the running services (exit 130); aar cleanup --environment swarm finds leftovers by label', async () => {
    const config = writeJobConfig(tmp.dir, {
      name: 'aar-test-sj-term',
      agents: [{ name: 'command', id: 'slow', options: { command: 'sleep 30; printf 4 > /app/answer.txt' } }],
      concurrency: 2,
      ...onSwarm,
    }, 'term.yaml');
    const trialServices = async () => (await services()).filter((n) => n.includes('-trial-'));
    const child = spawn(process.execPath, [AAR_BIN, 'run', config, '--progress', 'lines', '--no-report'], { stdio: 'ignore' });
    for (let i = 0; i < 1200 && (await trialServices()).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGTERM');
    expect(await new Promise((r) => child.once('exit', r))).toBe(130);
    expect(await services()).toEqual([]);

    // A killed run's leftovers: `aar cleanup --job DIR --environment swarm` removes them by the job's label.
    const killed = spawn(process.execPath, [AAR_BIN, 'run', config, '--progress', 'lines', '--no-report'], { stdio: 'ignore' });
    for (let i = 0; i < 1200 && (await trialServices()).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    killed.kill('SIGKILL');
    await new Promise((r) => killed.once('exit', r));
    expect((await trialServices()).length).toBe(2);
    const cleanup = spawn(process.execPath, [AAR_BIN, 'cleanup', '--job', path.join(tmp.dir, 'jobs', 'aar-test-sj-term'), '--environment', 'swarm'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    cleanup.stdout.on('data', (d: Buffer) => (out += d.toString()));
    expect(await new Promise((r) => cleanup.once('exit', r))).toBe(0);
    expect(out).toMatch(/^removed 2 /);
    expect(await services()).toEqual([]);
  });
});
