import { jest } from '@jest/globals';
import { execa } from 'execa';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { planImages } from '../../../harness/jobs/image-plan.js';
import { jobKeyOf } from '../../../harness/jobs/labels.js';
import { DEFAULT_IMAGE_SETTINGS, ensureBaseImage } from '../../../images/build.js';
import { dockerAvailable } from '../../../common/docker.js';
import { loadJobResults } from '../../../verifier/results.js';
import { AAR_BIN } from '../../helpers/cli.js';
import { EXAMPLES_DIR, tempDir } from '../../helpers/data.js';
import { finishedTrialDirs, writeJobConfig } from '../../helpers/jobs.js';
import { PrivateEngine, privateEngineUnavailable, removeStaleEngines } from '../../helpers/private-engine.js';

/**
 * The Docker engine going away in the middle of a job: a dockerd of the test's own (never the shared one),
 * stopped as `systemctl stop docker` stops it while trials run, then started again, or not.
 */
const why = (await dockerAvailable()) ? await privateEngineUnavailable() : 'engine-loss test skipped: no Docker engine answers';
if (why) console.warn(why);
const describeEngine = why ? describe.skip : describe;
jest.setTimeout(300_000);

/** Three example legs; the agent prints `started`, sleeps, and answers. */
const job = (name: string, overrides: Record<string, unknown>) => ({
  name,
  tasks: { path: EXAMPLES_DIR },
  agents: [{ name: 'command', id: 'sleeper', options: { command: 'echo started; sleep 6; printf 6 > /app/answer.txt' } }],
  ...overrides,
});

/** Waits until `n` agents of the job print `started` in their half-written trial folders. */
async function agentsStarted(jobDir: string, n: number): Promise<void> {
  const partial = path.join(jobDir, '.partial');
  for (let i = 0; i < 1200; i++) {
    const logs = existsSync(partial) ? readdirSync(partial).map((d) => path.join(partial, d, 'agent', 'stdout.log')) : [];
    if (logs.filter((f) => existsSync(f) && readFileSync(f, 'utf8').includes('started')).length >= n) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${n} agents of ${jobDir} did not start`);
}

describeEngine('the Docker engine going away during a job', () => {
  const tmp = tempDir('aar-i20d-engine-');
  let engine: PrivateEngine;
  const aar = (args: string[]) =>
    execa(process.execPath, [AAR_BIN, ...args], { env: { ...process.env, DOCKER_HOST: engine.host }, reject: false });

  beforeAll(async () => {
    await removeStaleEngines();
    // The trial image, built (or found) on the shared engine by its content-hash tag, with the Debian image it
    // was built on (the tag is derived from it), moved into the private engine.
    await ensureBaseImage();
    const plan = await planImages(DEFAULT_IMAGE_SETTINGS, []);
    engine = new PrivateEngine();
    await engine.start();
    await engine.loadImages(plan.images.map((i) => i.tag));
  });
  afterAll(async () => {
    await engine?.destroy();
    tmp.cleanup();
  });

  test('stopped while trials run and started again: the lost trials wait, run again from the start, and the job completes; none is scored from the lost run', async () => {
    // One infrastructure retry: were a lost run counted as an ordinary infrastructure error (as before), its retry
    // would fail too within the 8 s outage, and the trial would be recorded as an infra_error.
    const config = writeJobConfig(tmp.dir, job('restarted', { concurrency: 2, infra_retries: 1, engine_wait_s: 120 }), 'restarted.yaml');
    const jobDir = path.join(tmp.dir, 'jobs', 'restarted');
    const run = aar(['run', config, '--progress', 'lines', '--no-report']);
    await agentsStarted(jobDir, 2);
    await engine.stop();
    await new Promise((r) => setTimeout(r, 8000));
    await engine.start();
    const { exitCode, stderr, stdout } = await run;

    expect({ exitCode, stderr }).toMatchObject({ exitCode: 0 });
    const lines = stderr.split('\n');
    expect(lines).toContainEqual(expect.stringMatching(/^the Docker engine stopped answering at \d\d:\d\d:\d\d: running trials are lost \(not scored\) and run again once it answers; waiting up to 120 s \(engine_wait_s\)$/));
    // Each running trial is lost (in the moment the engine stops, its failure may look like any infrastructure
    // error first: then its retry, into the outage, is the one lost).
    const lost = lines.filter((l) => /^sleeper__\S+: lost with the Docker engine \(.+\); not scored, runs again once the engine answers$/.test(l));
    expect(lost.length).toBeGreaterThanOrEqual(1);
    expect(lines).toContainEqual(expect.stringMatching(/^the Docker engine answers again after \d+ s: going on$/));
    expect(stdout).toMatch(/restarted: 3 trials run, 0 already done, 0 infrastructure errors/);

    const results = loadJobResults(jobDir);
    expect(results.map((r) => r.record.status)).toEqual(['completed', 'completed', 'completed']);
    for (const r of results) {
      expect(r.score).not.toBeNull();
      // The trial folder holds the run that finished, from its start: one `started`, not the lost run's.
      expect(readFileSync(path.join(r.dir, 'agent', 'stdout.log'), 'utf8')).toBe('started\n');
    }
    expect(existsSync(path.join(jobDir, '.partial'))).toBe(false);
    expect(await engine.containers(`aar.job_key=${jobKeyOf(jobDir)}`)).toEqual([]);
  });

  test('stopped and not back within engine_wait_s: the job stops as on SIGTERM with one line and exit 1; a later run completes exactly the missing trials', async () => {
    const config = writeJobConfig(tmp.dir, job('gone', { concurrency: 1, infra_retries: 0, engine_wait_s: 2 }), 'gone.yaml');
    const jobDir = path.join(tmp.dir, 'jobs', 'gone');
    const run = aar(['run', config, '--progress', 'lines', '--no-report']);
    for (let i = 0; i < 1200 && finishedTrialDirs(jobDir).length < 1; i++) await new Promise((r) => setTimeout(r, 100));
    await agentsStarted(jobDir, 1);
    await engine.stop();
    const { exitCode, stderr } = await run;

    expect(exitCode).toBe(1);
    expect(stderr.trimEnd().split('\n').pop()).toMatch(
      /^aar: the Docker engine stopped answering at \d\d:\d\d:\d\d and did not answer again within 2 s \(engine_wait_s\); finished trials kept, the lost ones left no folder: run again to resume once it answers \(that run removes this one's containers\)$/,
    );
    const kept = finishedTrialDirs(jobDir);
    expect(kept).toHaveLength(1);
    const startedAt = JSON.parse(readFileSync(path.join(jobDir, kept[0], 'trial.json'), 'utf8')).started_at;
    expect(existsSync(path.join(jobDir, '.partial'))).toBe(false);
    expect(existsSync(path.join(jobDir, '.lock'))).toBe(false);

    await engine.start();
    const again = await aar(['run', config, '--progress', 'lines', '--no-report']);
    expect(again.exitCode).toBe(0);
    // The lost trial's container, stopped with the engine, is left over by the earlier run.
    expect(again.stderr.split('\n')).toContainEqual(expect.stringMatching(/^removed [1-9]\d* containers left by an earlier run of this job$/));
    expect(again.stdout).toMatch(/gone: 2 trials run, 1 already done, 0 infrastructure errors/);
    const results = loadJobResults(jobDir);
    expect(results.map((r) => [r.record.status, r.score === null])).toEqual([['completed', false], ['completed', false], ['completed', false]]);
    expect(JSON.parse(readFileSync(path.join(jobDir, kept[0], 'trial.json'), 'utf8')).started_at).toBe(startedAt);
    expect(finishedTrialDirs(jobDir).sort()).toEqual(readdirSync(jobDir).filter((d) => !d.startsWith('.') && d !== 'job.json').sort());
    expect(await engine.containers(`aar.job_key=${jobKeyOf(jobDir)}`)).toEqual([]);
  });
});
