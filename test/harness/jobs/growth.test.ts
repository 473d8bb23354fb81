import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadJobConfig, parseJobConfig } from '../../../harness/config/load.js';
import { meaningDifferences, meaningOf, recordedMeaning } from '../../../harness/jobs/growth.js';
import { runJob } from '../../../harness/jobs/job.js';
import { planTrials } from '../../../harness/jobs/plan.js';
import { previewJob } from '../../../harness/plan/preview.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { dockerAvailable } from '../../../common/docker.js';
import { loadLegs } from '../../../tasks/aar/load.js';
import { loadJobResults } from '../../../verifier/results.js';
import { AAR_BIN, runAar } from '../../helpers/cli.js';
import { AAR_DATA_DIR, EXAMPLES_DIR, HAVE_AAR_DATA, tempDir } from '../../helpers/data.js';
import { EXAMPLE_STORE } from '../../helpers/jobs.js';
import { writeJobConfig } from '../../helpers/jobs.js';

const HAVE_DOCKER = await dockerAvailable();
const describeDocker = HAVE_DOCKER ? describe : describe.skip;
const HAVE_SCRIPT = spawnSync('script', ['--version']).status === 0;

jest.setTimeout(300_000);

const run = (configPath: string, extra: Partial<Parameters<typeof runJob>[0]> = {}) => runJob({ configPath, reporter: new QuietReporter(), retryDelayMs: 10, ...extra });
const config = (yaml: string) => parseJobConfig('job.yaml', `tasks:\n  path: legs\n${yaml}`);
const startedAt = (jobDir: string) => Object.fromEntries(loadJobResults(jobDir).map((r) => [r.record.trial_id, r.record.started_at]));

describe('what a job folder means', () => {
  test('more legs, attempts or agents, and another concurrency, are growth; budgets, tools and agent settings are change', () => {
    const before = meaningOf(config('agents:\n  - name: oracle\nattempts: 1\nconcurrency: 2\n'));
    expect(meaningDifferences(before, meaningOf(config('  limit: 2\nagents:\n  - name: oracle\n  - name: random\nattempts: 3\nconcurrency: 8\n')))).toEqual([]);
    expect(
      meaningDifferences(before, meaningOf(config('agents:\n  - name: oracle\n    version: "2"\ntimeout_s: 30\nbudget:\n  steps: 12\ntools:\n  mode: replay\n  store: s\n'))),
    ).toEqual([
      'budget.steps: "auto" -> 12',
      'timeout_s: 600 -> 30',
      'tools.mode: "live" -> "replay"',
      'tools.store: (unset) -> "s"',
      'agents[oracle].version: (unset) -> "2"',
    ]);
  });

  test('seed, images.* and models.record_conversation are not change (the list compare checks budgets by); an older job.json that recorded them is read without them', () => {
    const before = meaningOf(config('agents:\n  - name: oracle\n'));
    const after = meaningOf(config('agents:\n  - name: oracle\nseed: 7\nimages:\n  base: debian:bookworm-slim\nmodels:\n  record_conversation: false\n'));
    expect(meaningDifferences(before, after)).toEqual([]);
    // A folder whose job.json still lists `seed` and `images.base` among its meaning keys (written before they left it).
    const older = recordedMeaning({ meaning: { ...before, settings: { ...before.settings, seed: 0, 'images.base': 'auto' } } })!;
    expect(meaningDifferences(older, after)).toEqual([]);
    expect(meaningDifferences(older, meaningOf(config('agents:\n  - name: oracle\ntimeout_s: 30\n')))).toEqual(['timeout_s: 600 -> 30']);
  });

  test('trials interleave agents leg by leg, attempt by attempt', async () => {
    const { legs } = await loadLegs([EXAMPLES_DIR]);
    const plans = planTrials(config('agents:\n  - name: oracle\n  - name: random\nattempts: 2\n'), legs.slice(0, 2));
    const [a, b] = legs.map((l) => l.id.replaceAll('/', '__'));
    expect(plans.map((p) => p.trialId)).toEqual([
      `oracle__${a}__1`, `random__${a}__1`, `oracle__${b}__1`, `random__${b}__1`,
      `oracle__${a}__2`, `random__${a}__2`, `oracle__${b}__2`, `random__${b}__2`,
    ]);
  });
});

describeDocker('growing and changing a job in Docker', () => {
  const tmp = tempDir('aar-growth-test-');
  afterAll(() => tmp.cleanup());

  test('more legs and attempts run only the new trials; finished ones are kept as they were', async () => {
    const first = await run(writeJobConfig(tmp.dir, { name: 'grow', tasks: { path: EXAMPLES_DIR, limit: 1 } }, 'grow1.yaml'));
    expect(first).toMatchObject({ planned: 1, ran: 1, skipped: 0 });
    const kept = startedAt(first.jobDir);
    const grownConfig = writeJobConfig(tmp.dir, { name: 'grow', tasks: { path: EXAMPLES_DIR, limit: 2 }, attempts: 2, concurrency: 3 }, 'grow2.yaml');
    expect(await previewJob(loadJobConfig(grownConfig))).toMatchObject({ planned: 4, done: 1, toRun: 3, refusal: [] });
    const grown = await run(grownConfig);
    expect(grown).toMatchObject({ planned: 4, ran: 3, skipped: 1, infraErrors: 0 });
    const after = startedAt(grown.jobDir);
    expect(Object.keys(after)).toHaveLength(4);
    for (const [id, at] of Object.entries(kept)) expect(after[id]).toBe(at);
    const jobFile = JSON.parse(readFileSync(path.join(grown.jobDir, 'job.json'), 'utf8'));
    expect(jobFile.config).toMatchObject({ attempts: 2, concurrency: 3, tasks: { limit: 2 } });
  });

  test('a changed meaning is refused, and the message lists the keys that differ', async () => {
    await run(writeJobConfig(tmp.dir, { name: 'change', tasks: { path: EXAMPLES_DIR, limit: 1 } }, 'change1.yaml'));
    const changed = writeJobConfig(tmp.dir, { name: 'change', tasks: { path: EXAMPLES_DIR, limit: 1 }, timeout_s: 30, agents: [{ name: 'oracle', version: '2' }] }, 'change2.yaml');
    expect((await previewJob(loadJobConfig(changed))).refusal).toEqual(['timeout_s: 60 -> 30', 'agents[oracle].version: (unset) -> "2"']);
    await expect(run(changed)).rejects.toThrow(/different configuration \(timeout_s: 60 -> 30; agents\[oracle\]\.version: \(unset\) -> "2"\)/);
    const cli = runAar(['run', changed, '--no-report', '--progress', 'quiet']);
    expect(cli.status).toBe(1);
    expect(cli.stderr).toContain('timeout_s: 60 -> 30');
  });

  test('a leg whose text changed under finished trials is a changed meaning too', async () => {
    const legs = path.join(tmp.dir, 'legs', 'examples-linear', 'easy');
    mkdirSync(legs, { recursive: true });
    const leg = path.join(legs, 'sample_001.json');
    copyFileSync(path.join(EXAMPLES_DIR, 'examples-linear', 'easy', 'sample_001.json'), leg);
    const file = writeJobConfig(tmp.dir, { name: 'legtext', tasks: { path: path.join(tmp.dir, 'legs') } }, 'legtext.yaml');
    await run(file);
    writeFileSync(leg, readFileSync(leg, 'utf8') + '\n');
    await expect(run(file)).rejects.toThrow(/leg examples-linear\/easy\/sample_001 \(trial oracle__examples-linear__easy__sample_001__1\): its text changed/);
  });

  test('an interrupted two-agent job leaves both agents with the same legs done (give or take the leg under way)', async () => {
    const file = writeJobConfig(tmp.dir, { name: 'interleave', agents: [{ name: 'oracle' }, { name: 'random' }], concurrency: 1 }, 'interleave.yaml');
    const controller = new AbortController();
    const reporter = new QuietReporter();
    let finished = 0;
    reporter.trialFinished = () => {
      if (++finished === 4) controller.abort();
    };
    const summary = await run(file, { signal: controller.signal, reporter });
    expect(summary.interrupted).toBe(true);
    const results = loadJobResults(summary.jobDir).sort((x, y) => (x.record.started_at < y.record.started_at ? -1 : 1));
    expect(results.map((r) => `${r.record.agent.id} ${r.record.leg.id}`)).toEqual([
      'oracle examples-dag/medium/sample_002',
      'random examples-dag/medium/sample_002',
      'oracle examples-linear/easy/sample_001',
      'random examples-linear/easy/sample_001',
    ]);
  });

  test('progress lines: live FA per agent, an ETA with its unit, and the elapsed time at the end', () => {
    const file = writeJobConfig(tmp.dir, { name: 'progress', agents: [{ name: 'oracle' }, { name: 'random', options: { seed: 1 } }] }, 'progress.yaml');
    const r = runAar(['run', file, '--progress', 'lines', '--no-report']);
    expect(r.status).toBe(0);
    const lines = r.stderr.trim().split('\n');
    expect(lines[0]).toBe('job progress: 6 trials, 0 already done, 6 to run');
    const trialLines = lines.filter((l) => /^\[\d\/6\]/.test(l));
    expect(trialLines).toHaveLength(6);
    for (const l of trialLines) expect(l).toMatch(/\| FA oracle (-|100\.0%), random (-|\d+\.\d%) \| ETA \d+ (s|min \d\d s)$/);
    expect(trialLines.at(-1)).toMatch(/FA oracle 100\.0%, random \d+\.\d% \| ETA 0 s$/);
    expect(r.stdout.trim()).toMatch(/: 6 trials run, 0 already done, 0 infrastructure errors, \d+ (s|min \d\d s) elapsed$/);
  });

  (HAVE_SCRIPT ? test : test.skip)('the progress bar on a terminal: FA per agent and an ETA with its unit', () => {
    // `script` gives the command a terminal, as a person running it has.
    const command = [process.execPath, AAR_BIN, 'run', '--agent', 'oracle', '--agent', 'random', '--path', EXAMPLES_DIR, '--limit', '1', '--tools-mode', 'replay', '--tools-store', EXAMPLE_STORE, '--name', 'bar', '--jobs-dir', path.join(tmp.dir, 'bar-jobs'), '--progress', 'bar', '--no-report'];
    const r = spawnSync('script', ['-qec', command.join(' '), '/dev/null'], { encoding: 'utf8', timeout: 120_000 });
    expect(r.status).toBe(0);
    const frames = r.stdout.split(/\r|\n|\x1b\[[0-9;?]*[A-Za-z]/).filter((f) => f.includes(' trials | '));
    expect(frames[0]).toMatch(/0\/2 trials \| \d running \| 0 infra errors \| FA oracle -, random - \| ETA unknown$/);
    expect(frames.at(-1)).toMatch(/2\/2 trials \| 0 running \| 0 infra errors \| FA oracle 100\.0%, random \d+\.\d% \| ETA 0 s$/);
    expect(r.stdout).toMatch(/2 trials run, 0 already done, 0 infrastructure errors, \d+ s elapsed/);
  });

  (HAVE_AAR_DATA ? test : test.skip)('flags alone on the released legs: a seeded sample of 3 grown to 6 runs the 3 new legs only', () => {
    const jobsDir = path.join(tmp.dir, 'data-jobs');
    // The random agent calls no tool: the example store cannot serve these legs' golden calls, and need not (--allow-missing).
    const args = (n: number) => ['run', '--agent', 'random', '--path', AAR_DATA_DIR, '--sample', String(n), '--seed', '5', '--tools-mode', 'replay', '--tools-store', EXAMPLE_STORE, '--allow-missing', '--timeout', '60', '--concurrency', '3', '--name', 'sampled', '--jobs-dir', jobsDir, '--progress', 'quiet', '--no-report'];
    const first = runAar(args(3));
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/: 3 trials run, 0 already done, 0 infrastructure errors/);
    const grown = runAar(args(6));
    expect(grown.status).toBe(0);
    expect(grown.stdout).toMatch(/: 3 trials run, 3 already done, 0 infrastructure errors/);
    const jobFile = JSON.parse(readFileSync(path.join(jobsDir, 'sampled', 'job.json'), 'utf8'));
    expect(jobFile).toMatchObject({ config_file: 'command line', config: { agents: [{ name: 'random' }], tasks: { path: AAR_DATA_DIR, sample: { n: 6, seed: 5 } }, timeout_s: 60 } });
  });
});
