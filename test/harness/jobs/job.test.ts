import { jest } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { dockerAvailable } from '../../../common/docker.js';
import { loadJobResults } from '../../../verifier/results.js';
import { AAR_BIN } from '../../helpers/cli.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';
import { expectSleeperTimedOut, finishedTrialDirs, harnessContainers, killRunAfter, SLEEPER_JOB, writeJobConfig } from '../../helpers/jobs.js';
import { SECRET_MARK } from '../../../common/secrets.js';
import { FAKE_KEY_VARS, FAKE_KEYS, startFakeUpstreams, withFakeToolKeys } from '../../tools/providers/fakes/index.js';

/** Real Docker: .ci/run starts an engine (images/docker-up.sh); without one these tests cannot run. */
const HAVE_DOCKER = await dockerAvailable();
const describeDocker = HAVE_DOCKER ? describe : describe.skip;
if (!HAVE_DOCKER) console.warn('Docker tests skipped: no Docker engine answers (run images/docker-up.sh)');

jest.setTimeout(300_000);

const run = (configPath: string, extra: Partial<Parameters<typeof runJob>[0]> = {}) =>
  runJob({ configPath, reporter: new QuietReporter(), retryDelayMs: 10, ...extra });

const scores = (jobDir: string) =>
  Object.fromEntries(
    loadJobResults(jobDir).map((r) => {
      const { wall_s: _w, ...rest } = r.score ?? {};
      return [path.basename(r.dir), { status: r.record.status, score: rest }];
    }),
  );

describeDocker('jobs in Docker', () => {
  const tmp = tempDir('aar-job-test-');
  afterAll(() => tmp.cleanup());

  test('the default agents on the example legs: the oracle scores 100%, random is scored, no container is left', async () => {
    const config = writeJobConfig(tmp.dir, { name: 'full', agents: [{ name: 'oracle' }, { name: 'random' }] }, 'full.yaml');
    const summary = await run(config);
    expect(summary).toMatchObject({ planned: 6, ran: 6, skipped: 0, infraErrors: 0, interrupted: false });
    const results = loadJobResults(summary.jobDir);
    const oracle = results.filter((r) => r.record.agent.id === 'oracle');
    expect(oracle).toHaveLength(3);
    for (const r of oracle) {
      expect(r.record.status).toBe('completed');
      expect(r.score).toMatchObject({ fa: 1, pvr: 1, rcr: 1, status: 'correct' });
      expect(readdirSync(r.dir).sort()).toEqual(['agent', 'answer.txt', 'instruction.md', 'leg.json', 'score.json', 'tool_log.jsonl', 'trajectory.json', 'trial.json']);
    }
    const random = results.filter((r) => r.record.agent.id === 'random');
    expect(random.every((r) => r.score !== null && r.record.seed !== null)).toBe(true);
    expect(await harnessContainers('full')).toEqual([]);
    expect(readdirSync(summary.jobDir).filter((f) => f.startsWith('.partial') && readdirSync(path.join(summary.jobDir, f)).length)).toEqual([]);

    const again = await run(config);
    expect(again).toMatchObject({ planned: 6, ran: 0, skipped: 6 });
  });

  test('a resumed job equals an uninterrupted one', async () => {
    const agents = [{ name: 'oracle' }, { name: 'random' }];
    const whole = await run(writeJobConfig(tmp.dir, { name: 'whole', agents, concurrency: 1 }, 'whole.yaml'));
    const configPath = writeJobConfig(tmp.dir, { name: 'resumed', agents, concurrency: 1 }, 'resumed.yaml');
    const controller = new AbortController();
    const reporter = new QuietReporter();
    let finished = 0;
    reporter.trialFinished = () => {
      if (++finished === 2) controller.abort();
    };
    const first = await run(configPath, { signal: controller.signal, reporter });
    expect(first.interrupted).toBe(true);
    expect(first.ran).toBeLessThan(6);
    expect(await harnessContainers('resumed')).toEqual([]);
    const second = await run(configPath);
    expect(second.skipped).toBe(first.ran);
    expect(second.ran + second.skipped).toBe(6);
    expect(scores(second.jobDir)).toEqual(scores(whole.jobDir));
  });

  test('an agent sleeping past the timeout is killed within 2 s of it, and its container removed', async () => {
    const summary = await run(writeJobConfig(tmp.dir, { name: 'sleepy', ...SLEEPER_JOB }, 'sleepy.yaml'));
    expectSleeperTimedOut(summary.jobDir);
    expect(await harnessContainers('sleepy')).toEqual([]);
  });

  test('a forged /app/tool_log.jsonl does not change the scores: the log is written on the host', async () => {
    const forged = JSON.stringify({ tool: 'fetch_webpage', args: { url: 'https://en.wikipedia.org/wiki/Eiffel_Tower' }, success: true, url: 'https://en.wikipedia.org/wiki/Eiffel_Tower', result_preview: '1889 1832 33 14 6', result_len: 17, ts: 1 });
    const config = writeJobConfig(tmp.dir, {
      name: 'forger',
      tasks: { path: path.join(REPO_ROOT, 'tasks', 'examples'), ids: ['examples-linear/easy/sample_001'] },
      agents: [{ name: 'command', id: 'forger', options: { command: `printf '%s\\n' '${forged}' > /app/tool_log.jsonl; cp /app/tool_log.jsonl /tmp/x; printf 6 > /app/answer.txt` } }],
    }, 'forger.yaml');
    const summary = await run(config);
    const [result] = loadJobResults(summary.jobDir);
    expect(result.score).toMatchObject({ fa: 1, total_tool_calls: 0, pages_visited: 0, pvr: 0, intermediate_correct: 0, shortcut: true });
    expect(readFileSync(path.join(result.dir, 'tool_log.jsonl'), 'utf8')).toBe('');
  });

  test('a tool API key set on the host is used there, and reaches no container and no trial folder', async () => {
    const fakes = await startFakeUpstreams();
    const secret = FAKE_KEYS.google;
    const config = writeJobConfig(tmp.dir, {
      name: 'secret',
      tasks: { path: path.join(REPO_ROOT, 'tasks', 'examples'), limit: 1 },
      tools: { mode: 'live', endpoints: fakes.endpoints },
      agents: [{ name: 'command', id: 'snoop', options: { command: `env; tr '\\0' '\\n' < /proc/1/environ; tools maps_geocode '{"address": "Paris"}'; printf 1 > /app/answer.txt` } }],
    }, 'secret.yaml');
    // A live job needs every tool key; the others are set too, and must not leak either.
    const keys = FAKE_KEY_VARS;
    try {
      const summary = await withFakeToolKeys(() => run(config));
      const [result] = loadJobResults(summary.jobDir);
      const stdout = readFileSync(path.join(result.dir, 'agent', 'stdout.log'), 'utf8');
      // The container has its token (it shows it in its output); the trial folder keeps it masked.
      expect(stdout).toContain(`AAR_TRIAL_TOKEN=${SECRET_MARK}`);
      expect(stdout).toContain('"formatted_address": "Paris, France"');
      expect(fakes.requests.some((r) => r.server === 'google-maps' && r.query.key === secret)).toBe(true);
      const files = readdirSync(summary.jobDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
      const everything = files.map((e) => readFileSync(path.join(e.parentPath, e.name), 'utf8')).join('\n');
      expect(files.length).toBeGreaterThan(5);
      for (const key of Object.values(keys)) expect(everything).not.toContain(key);
    } finally {
      await fakes.stop();
    }
  });

  test('SIGTERM: no new trials, running containers removed, exit status 130, and the job resumes', async () => {
    const config = writeJobConfig(tmp.dir, {
      name: 'terminated',
      agents: [{ name: 'command', id: 'slow', options: { command: 'sleep 3; printf 4 > /app/answer.txt' } }],
      attempts: 2,
      concurrency: 2,
    }, 'terminated.yaml');
    const jobDir = path.join(tmp.dir, 'jobs', 'terminated');
    const child = spawn(process.execPath, [AAR_BIN, 'run', config, '--progress', 'lines', '--no-report'], { stdio: 'ignore' });
    for (let i = 0; i < 600 && (await harnessContainers('terminated')).length < 2; i++) await new Promise((r) => setTimeout(r, 100));
    child.kill('SIGTERM');
    const code = await new Promise((r) => child.once('exit', r));
    expect(code).toBe(130);
    expect(await harnessContainers('terminated')).toEqual([]);
    const summary = await run(config);
    expect(summary.ran + summary.skipped).toBe(6);
    expect(readdirSync(jobDir).filter((d) => existsSync(path.join(jobDir, d, 'trial.json')))).toHaveLength(6);
  });

  test('killed with SIGKILL mid-job: the rerun removes the orphans and loses no finished trial', async () => {
    const config = writeJobConfig(tmp.dir, {
      name: 'killed',
      agents: [{ name: 'command', id: 'slow', options: { command: 'sleep 2; printf 4 > /app/answer.txt' } }],
      attempts: 3,
      concurrency: 2,
    }, 'killed.yaml');
    const jobDir = path.join(tmp.dir, 'jobs', 'killed');
    const { pid, startedAt } = await killRunAfter(config, jobDir, 2);
    const before = Object.keys(startedAt);
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.length).toBeLessThan(9);
    expect((await harnessContainers('killed')).length).toBeGreaterThan(0);
    // The killed run's lock is still there; its process is gone, so the rerun takes it over.
    expect(JSON.parse(readFileSync(path.join(jobDir, '.lock'), 'utf8')).pid).toBe(pid);

    const summary = await run(config);
    expect(existsSync(path.join(jobDir, '.lock'))).toBe(false);
    expect(summary.leftoversRemoved).toBeGreaterThan(0);
    expect(summary.skipped).toBe(before.length);
    expect(summary.ran + summary.skipped).toBe(9);
    for (const d of before) expect(JSON.parse(readFileSync(path.join(jobDir, d, 'trial.json'), 'utf8')).started_at).toBe(startedAt[d]);
    expect(finishedTrialDirs(jobDir)).toHaveLength(9);
    expect(await harnessContainers('killed')).toEqual([]);
  });
});
