import { jest } from '@jest/globals';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { dockerAvailable } from '../../../../common/docker.js';
import { runJob } from '../../../../harness/jobs/job.js';
import { QuietReporter } from '../../../../harness/jobs/reporters.js';
import { loadJobResults } from '../../../../verifier/results.js';
import type { GenerationReport } from '../../../../tasks/aar/generate/report-files.js';
import { runAar } from '../../../helpers/cli.js';
import { tempDir } from '../../../helpers/data.js';
import { writeJobConfig } from '../../../helpers/jobs.js';

jest.setTimeout(600_000);
const HAVE_DOCKER = await dockerAvailable();

/**
 * `aar legs generate` end to end on the example world, as a process: with the scripted model through the
 * real gateway, and without a model; then the legs validated, audited and (with Docker) run by the oracle
 * in replay on the store the generation wrote.
 */
describe('aar legs generate on the example config', () => {
  const tmp = tempDir('aar-legs-');
  afterAll(() => tmp.cleanup());
  const out = path.join(tmp.dir, 'scripted');

  test('the scripted model: every leg valid and auditable, its structure within the level ranges, the layout as documented', () => {
    const r = runAar(['legs', 'generate', 'configs/generate-example.yaml', '--out', out, '--levels', 'easy,hard', '--legs-per-level', '1', '--format', 'json', '--reference', 'none']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const report = JSON.parse(r.stdout) as GenerationReport;
    expect(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'))).toEqual(report);
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(/^# Generation report\n/);
    expect(report.accepted).toBe(4);
    expect(report.slots.map((s) => `${s.variant}/${s.level} ${s.made}`)).toEqual(['aar-linear/easy 1', 'aar-linear/hard 1', 'aar-dag/easy 1', 'aar-dag/hard 1']);
    for (const l of report.levels) for (const k of ['base_stops', 'roadblocks', 'detours', 'diamonds'] as const) expect(l[k].inRange).toBe(1);
    expect(report.linear_share).toEqual({ 'aar-linear': 1, 'aar-dag': 0 });
    expect(report.jaccard.reference).toBeNull();
    expect(report.jaccard.within.pairs).toBe(6);
    expect(report.model).toMatchObject({ name: 'scripted-generator', steps: ['plan', 'extract', 'verbalize', 'roundtrip'] });
    expect(report.model!.turns).toBeGreaterThanOrEqual(4 * 3);
    expect(report.model!.input_tokens).toBeGreaterThan(0);
    const requests = readFileSync(path.join(out, 'model', 'model_log.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(requests).toHaveLength(report.model!.turns);
    expect(requests.every((q) => q.status === 200 && q.request.temperature === 0)).toBe(true);
    expect(readdirSync(path.join(out, 'legs'))).toEqual(['aar-dag', 'aar-linear']);
    const leg = JSON.parse(readFileSync(path.join(out, 'legs', 'aar-dag', 'hard', 'sample_000.json'), 'utf8'));
    expect(leg.provenance).toMatchObject({ pipeline: 'aar-harness-generate/1', level: 'hard', variant: 'aar-dag', model: 'scripted-generator', steps: { plan: 'model', verbalize: 'model', roundtrip: 'model' }, tools: { mode: 'replay', world: '../tasks/examples-generate/world.yaml' } });
    expect(leg.stops.every((s: { depends_on?: number[] }) => Array.isArray(s.depends_on))).toBe(true);
    expect(runAar(['tasks', 'validate', path.join(out, 'legs')]).status).toBe(0);
    const audit = runAar(['tasks', 'audit', path.join(out, 'legs'), '--tools-store', path.join(out, 'store'), '--format', 'json']);
    expect(audit.status).toBe(0);
    expect(JSON.parse(audit.stdout).invariants.api_stability).toEqual({ pass: 4, fail: 0, unchecked: 0 });
  });

  test('no model: the rule form of every step, labelled so in each leg; a second run into the same folder is refused', () => {
    const bare = path.join(tmp.dir, 'bare');
    const r = runAar(['legs', 'generate', 'configs/generate-example.yaml', '--out', bare, '--model-steps', 'none', '--levels', 'medium', '--variants', 'linear', '--legs-per-level', '1', '--quiet', '--reference', 'none']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('No model: every step in its rule form');
    const leg = JSON.parse(readFileSync(path.join(bare, 'legs', 'aar-linear', 'medium', 'sample_000.json'), 'utf8'));
    expect(leg.provenance).toMatchObject({ model: null, steps: { plan: 'rule', extract: 'rule', verbalize: 'rule', roundtrip: 'rule' } });
    expect(leg.stops.filter((s: { reasoning: string }) => /read by the model/.test(s.reasoning))).toEqual([]);
    const again = runAar(['legs', 'generate', 'configs/generate-example.yaml', '--out', bare, '--model-steps', 'none']);
    expect(again.status).toBe(1);
    expect(again.stderr).toBe(`aar: --out ${bare}: already holds generated legs (legs/); give a new folder\n`);
  });

  (HAVE_DOCKER ? test : test.skip)('the oracle in replay on the generation\'s own store scores FA = PVR = RCR = 100% on every new leg', async () => {
    expect(existsSync(path.join(out, 'store'))).toBe(true);
    const config = writeJobConfig(tmp.dir, { name: 'oracle-on-new-legs', tasks: { path: path.join(out, 'legs') }, tools: { mode: 'replay', store: path.join(out, 'store') } }, 'oracle.yaml');
    const summary = await runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10 });
    expect(summary).toMatchObject({ ran: 4, infraErrors: 0 });
    const scores = loadJobResults(summary.jobDir).map((t) => t.score!);
    expect(scores.map((s) => [s.status, s.pvr, s.rcr])).toEqual(Array(4).fill(['correct', 1, 1]));
  });
});
