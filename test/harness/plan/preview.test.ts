import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadJobConfig } from '../../../harness/config/load.js';
import { BUILT_IN_PRICES } from '../../../harness/gateway/models/apis/registry.js';
import { findPrice } from '../../../harness/gateway/models/prices.js';
import { previewJob } from '../../../harness/plan/preview.js';
import { formatPreview } from '../../../harness/plan/text.js';
import { dockerAvailable, docker } from '../../../common/docker.js';
import { IMAGE_LABEL } from '../../../images/build.js';
import { loadLegs } from '../../../tasks/aar/load.js';
import { stepBudget } from '../../../tasks/aar/schema.js';
import { runAar } from '../../helpers/cli.js';
import { AAR_DATA_DIR, EXAMPLES_DIR, HAVE_AAR_DATA, REPO_ROOT, tempDir } from '../../helpers/data.js';
import { writeJobConfig } from '../../helpers/jobs.js';

const HAVE_DOCKER = await dockerAvailable();
const NO_KEYS = { ANTHROPIC_API_KEY: '', OPENAI_API_KEY: '', GOOGLE_API_KEY: '', SERPER_API_KEY: '' };

/** An earlier job's trial record, as a run writes it, with the counts the estimate reads. */
function writeEarlierTrial(jobDir: string, name: string, run: { steps: number; input: number; output: number; cached: number }, budget: number): void {
  mkdirSync(path.join(jobDir, name), { recursive: true });
  writeFileSync(
    path.join(jobDir, name, 'trial.json'),
    JSON.stringify({
      trial_id: name,
      agent: { id: 'codex@gpt-5.4', name: 'codex', model: 'gpt-5.4', version: null },
      status: 'completed',
      step_budget: budget,
      run: { steps: run.steps, step_limit_hit: false, exit_code: 0, input_tokens: run.input, output_tokens: run.output, cached_tokens: run.cached, cost_usd: null },
    }),
  );
}

describe('aar plan / aar run --dry-run', () => {
  const tmp = tempDir('aar-plan-');
  afterAll(() => tmp.cleanup());

  test('the example job: trials per agent, no keys needed, no model cost', async () => {
    const config = writeJobConfig(tmp.dir, { name: 'examples', agents: [{ name: 'oracle' }, { name: 'random' }], attempts: 2 }, 'examples.yaml');
    const preview = await previewJob(loadJobConfig(config), NO_KEYS);
    expect(preview).toMatchObject({ legs: 3, planned: 12, done: 0, toRun: 12, refusal: [], keys: [] });
    expect(preview.agents).toEqual([
      { id: 'oracle', planned: 6, done: 0, toRun: 6 },
      { id: 'random', planned: 6, done: 0, toRun: 6 },
    ]);
    const text = formatPreview(preview);
    expect(text).toContain('trials: 12 planned (2 agents x 3 legs x 2 attempts), 0 already done, 12 to run');
    expect(text).toContain('keys: none needed');
    // 3 legs: the exact McNemar test's smallest p is 0.25, the sign-flip test's 0.25 too: nothing is detectable (was "80.9 pp").
    expect(text).toContain('power: on 3 legs x 2 attempts, `aar compare` cannot detect any FA difference between two configurations at 80% power: too few legs');
    expect(text).toMatch(/oracle\s+6 trials, step budget 60: no model, no tokens, \$0/);
  });

  test('estimates: measured tokens per step of an earlier job of the same agent, priced from the table', async () => {
    const jobsDir = path.join(tmp.dir, 'estimate-jobs');
    // Two earlier trials of codex@gpt-5.4: 20 steps of 40 allowed, 20,000 input (10,000 cached) and 500 output tokens per step.
    writeEarlierTrial(path.join(jobsDir, 'earlier'), 'a', { steps: 12, input: 240_000, output: 6_000, cached: 120_000 }, 20);
    writeEarlierTrial(path.join(jobsDir, 'earlier'), 'b', { steps: 8, input: 160_000, output: 4_000, cached: 80_000 }, 20);
    const config = writeJobConfig(tmp.dir, { name: 'estimate', output: jobsDir, agents: [{ name: 'codex', model: 'gpt-5.4' }, { name: 'claude-code', model: 'claude-sonnet-4-6' }] }, 'estimate.yaml');
    const preview = await previewJob(loadJobConfig(config), NO_KEYS);

    const { legs } = await loadLegs([EXAMPLES_DIR]);
    const budget = legs.reduce((n, l) => n + stepBudget(l.leg), 0);
    const [codex, claude] = preview.estimates;
    expect(codex).toMatchObject({ agentId: 'codex@gpt-5.4', trials: 3, stepBudget: budget, basis: 'measured', priced: 'gpt-5.4' });
    expect(codex.measured).toMatchObject({ jobs: ['earlier'], trials: 2, budgetUsed: 0.5, perStep: { input: 20_000, output: 500, cached: 10_000 } });
    // gpt-5.4: $2.50 per M uncached input, $0.25 cached, $15 output -> 10,000 x 2.5 + 10,000 x 0.25 + 500 x 15 = $0.035 per step.
    expect(codex.maxTokens).toBe(20_500 * budget);
    expect(codex.maxCostUsd).toBeCloseTo(0.035 * budget, 9);
    expect(codex.expectedTokens).toBe(Math.round(20_500 * budget * 0.5));
    expect(codex.expectedCostUsd).toBeCloseTo(0.035 * budget * 0.5, 9);
    // No earlier claude-code job: the paper's figure, 20,000 tokens per step (3% output), no cache.
    const sonnet = findPrice(BUILT_IN_PRICES, 'claude-sonnet-4-6')!.price;
    expect(claude).toMatchObject({ basis: 'paper', maxTokens: 20_000 * budget });
    expect(claude.maxCostUsd).toBeCloseTo(((19_400 * sonnet.input + 600 * sonnet.output) / 1e6) * budget, 9);

    expect(preview.keys).toEqual([
      { name: 'OPENAI_API_KEY', neededBy: ['codex@gpt-5.4'], set: false },
      { name: 'ANTHROPIC_API_KEY', neededBy: ['claude-code@claude-sonnet-4-6'], set: false },
    ]);
    const text = formatPreview(preview);
    expect(text).toContain('keys: 2 of 2 missing');
    expect(text).toMatch(/measured: 2 trials in earlier; 50% of the step budget used/);
    expect(text).toMatch(/AAR paper figures/);
  });

  (HAVE_DOCKER ? test : test.skip)('images: content-hash tags and whether the engine has them; nothing is built', async () => {
    const config = writeJobConfig(tmp.dir, { name: 'images', agents: [{ name: 'oracle' }, { name: 'codex', model: 'gpt-5.4' }] }, 'images.yaml');
    const before = (await docker().listImages({ filters: { label: [IMAGE_LABEL] } })).length;
    const r = runAar(['plan', config], { env: NO_KEYS });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ {2}aar-base:[0-9a-f]{12}\s+base\s+(present|to build)$/m);
    expect(r.stdout).toMatch(/^ {2}aar-codex:[0-9a-f]{12}\s+codex\s+(present|to build)$/m);
    expect((await docker().listImages({ filters: { label: [IMAGE_LABEL] } })).length).toBe(before);
  });

  test('without a Docker engine: images unknown, the rest of the plan as usual', () => {
    const config = writeJobConfig(tmp.dir, { name: 'nodocker', agents: [{ name: 'oracle' }] }, 'nodocker.yaml');
    const r = runAar(['run', '--dry-run', config], { env: { ...NO_KEYS, DOCKER_HOST: `unix://${path.join(tmp.dir, 'no-such.sock')}` } });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('images: unknown (no Docker engine answers)');
    expect(r.stdout).toContain('trials: 3 planned');
    expect(r.stdout).toBe(runAar(['plan', config], { env: { ...NO_KEYS, DOCKER_HOST: `unix://${path.join(tmp.dir, 'no-such.sock')}` } }).stdout);
  });

  (HAVE_AAR_DATA ? test : test.skip)('configs/paper.yaml with no keys: 4,200 trials and the four missing keys', () => {
    // The released data by its path here (test/tasks/datasets/fetch.test.ts plans it as `dataset: aar`, fetched).
    const r = runAar(['run', '--dry-run', 'configs/paper.yaml', '--path', AAR_DATA_DIR, '--jobs-dir', path.join(tmp.dir, 'paper-jobs')], { env: NO_KEYS });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('trials: 4,200 planned (3 agents x 1,400 legs x 1 attempt)');
    // The exact McNemar test's power, computed exactly: 5.4 pp (the normal approximation said 5.3); on 100 legs 20.7 pp (it said 19.8).
    expect(r.stdout).toContain('power: on 1,400 legs x 1 attempt, `aar compare` detects an FA difference between two configurations of at least 5.4 pp (exact McNemar, its power computed exactly) at 80% power');
    expect(r.stdout).toContain('keys: 4 of 4 missing');
    for (const key of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GOOGLE_API_KEY', 'SERPER_API_KEY']) expect(r.stdout).toMatch(new RegExp(`^ {2}${key}\\s+MISSING`, 'm'));
    expect(r.stdout).toMatch(/total at most \$[\d,]+/);
  });
});
