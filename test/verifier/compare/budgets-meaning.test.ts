import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { filterLegs } from '../../../tasks/aar/filter.js';
import { loadLegs, type LoadedLeg } from '../../../tasks/aar/load.js';
import { checkBudgets } from '../../../verifier/compare/budgets.js';
import { loadConfigurations } from '../../../verifier/compare/select.js';
import { CRAFTED_JOB, writeCraftedJob } from '../../helpers/crafted-jobs.js';
import { AAR_DATA_DIR, describeWithData, REPO_ROOT, tempDir } from '../../helpers/data.js';

/** A job config as the harness records it: the whole effective config, every default filled in. */
const RECORDED = {
  name: 'crafted', output: 'jobs', tasks: { path: 'legs' }, agents: [{ name: 'alpha', flags: [], env: {}, options: {} }], attempts: 1, timeout_s: 600,
  budget: { steps: 'auto' }, concurrency: 'auto', resources: { memory_mb: 10240, cpus: 1, pids: 1024 }, environment: 'docker', network: 'none',
  tools: { mode: 'live', output_limit: 8000, endpoints: {} }, models: { max_attempts: 4, timeout_s: 300 }, images: { base: 'auto' }, infra_retries: 2, engine_wait_s: 120, seed: 0,
};

describeWithData("the budget check reads what each job recorded (job.json's meaning), never today's schema", () => {
  const tmp = tempDir('aar-compare-meaning-');
  let legs: LoadedLeg[];
  beforeAll(async () => {
    legs = filterLegs((await loadLegs(AAR_DATA_DIR)).legs, { sample: { n: 5, seed: 21 } });
  });
  afterAll(() => tmp.cleanup());

  const pair = (name: string, a: Record<string, unknown>, b: Record<string, unknown>, edit?: (jobDir: string) => void): string[] => {
    const [da, db] = [path.join(tmp.dir, `${name}-a`), path.join(tmp.dir, `${name}-b`)];
    writeCraftedJob(da, legs, 'alpha', 1, () => ({ fa: 1 }), { job: a });
    writeCraftedJob(db, legs, 'beta', 1, () => ({ fa: 1 }), { job: b });
    edit?.(db);
    return checkBudgets(loadConfigurations([da, db])).differences.map((d) => d.key);
  };

  test('8. seed, images.* and models.record_conversation do not change what a trial measures: not refused (were)', () => {
    const changed = { ...RECORDED, seed: 7, images: { base: 'debian:bookworm-slim', npm_registry: 'http://127.0.0.1:9/' }, models: { ...RECORDED.models, record_conversation: false } };
    expect(pair('not-meaning', RECORDED, changed)).toEqual([]);
    // What does change meaning is still listed beside them.
    expect(pair('meaning-too', RECORDED, { ...changed, timeout_s: 300 })).toEqual(['timeout_s']);
  });

  test('8. a stored config that no longer parses is not set against a parsed one: only the key that differs (was: every default)', () => {
    // b was recorded by a harness that had a key today's schema refuses; a still parses today.
    expect(pair('unparsable', { tasks: { path: 'legs' }, agents: [{ name: 'alpha' }], timeout_s: 600 }, { tasks: { path: 'legs' }, agents: [{ name: 'beta' }], timeout_s: 600, retired_key: 1 })).toEqual(['retired_key']);
  });

  test("8. job.json's recorded meaning is what is compared; an older job.json without one has it derived from its recorded config", () => {
    const withMeaning = (settings: Record<string, unknown>) => (dir: string): void => {
      const file = path.join(dir, 'job.json');
      writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), meaning: { settings, agents: {} } }));
    };
    // The same config recorded, but the meaning the run recorded says 300 s: the record wins.
    expect(pair('recorded', CRAFTED_JOB, CRAFTED_JOB, withMeaning({ timeout_s: 300, 'budget.steps': 'auto', 'tools.mode': 'live', 'tools.output_limit': 8000, 'tasks.family': null }))).toEqual(['timeout_s']);
    const configs = loadConfigurations([path.join(tmp.dir, 'recorded-a'), path.join(tmp.dir, 'recorded-b')]);
    expect(configs.map((c) => c.job!.settingsSource)).toEqual(['derived', 'recorded']);
    const from = checkBudgets(configs).checked.find((d) => d.key === 'meaning settings read from')!;
    expect(from.values).toEqual({ 'recorded-a:alpha': "job.json's config (older file: no meaning recorded)", 'recorded-b:beta': "job.json's meaning" });
  });

  test('8. verifier/ imports nothing from harness/ (the one arrow back up is gone)', () => {
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.ts') && /from '(\.\.\/)+harness\//.test(readFileSync(p, 'utf8'))) offenders.push(path.relative(REPO_ROOT, p));
      }
    };
    walk(path.join(REPO_ROOT, 'verifier'));
    expect(offenders).toEqual([]);
  });
});
