import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { filterLegs } from '../../../tasks/aar/filter.js';
import { loadLegs, type LoadedLeg } from '../../../tasks/aar/load.js';
import { listTrialDirs } from '../../../trial/folder.js';
import { checkBudgets } from '../../../verifier/compare/budgets.js';
import { compareConfigurations, type PairedRow } from '../../../verifier/compare/compare.js';
import { renderTables } from '../../../verifier/compare/render.js';
import { loadConfigurations } from '../../../verifier/compare/select.js';
import { paperTables } from '../../../verifier/paper-tables/index.js';
import { CRAFTED_JOB, writeCraftedJob } from '../../helpers/crafted-jobs.js';
import { AAR_DATA_DIR, describeWithData, tempDir } from '../../helpers/data.js';

const primary = (rows: PairedRow[], a: string, b: string): PairedRow => rows.find((p) => p.role === 'primary' && p.a === a && p.b === b)!;

describeWithData('aar compare: the leg is the unit, each pair on its own legs (crafted jobs on real legs)', () => {
  const tmp = tempDir('aar-compare-legs-');
  let all: LoadedLeg[];
  beforeAll(async () => {
    all = (await loadLegs(AAR_DATA_DIR)).legs;
  });
  afterAll(() => tmp.cleanup());

  test('30 legs x 3 identical attempts, 4 discordant legs: n = 30 legs, p = 0.125, an interval on legs (was n = 90, p = 4.9e-4)', () => {
    const legs = filterLegs(all, { sample: { n: 30, seed: 3 } });
    const job = path.join(tmp.dir, 'thirty');
    writeCraftedJob(job, legs, 'alpha', 3, (i) => ({ fa: i < 20 ? 1 : 0 }));
    writeCraftedJob(job, legs, 'beta', 3, (i) => ({ fa: i >= 4 && i < 20 ? 1 : 0 }));
    const result = compareConfigurations(loadConfigurations([job]));
    const fa = primary(result.paired, 'alpha', 'beta');
    expect(fa).toMatchObject({ metric: 'fa', variant: '*', level: '*', n: 30, reducer: 'mean', attempts: '3', discordant_a: 4, discordant_b: 0, test: 'McNemar exact', interval: 'Newcombe' });
    expect(fa.p_value).toBeCloseTo(0.125, 12);
    expect(fa.diff).toBeCloseTo(-4 / 30, 12);
    // Newcombe on the 30 legs: [-26.1, +0.4] pp, holding 0 as the exact test's p = 0.125 says (was [-21.1, -6.7] on 90 leg-attempts).
    expect(fa.lo!).toBeCloseTo(-0.2607, 3);
    expect(fa.hi!).toBeCloseTo(0.0035, 3);
    expect(result.configurations.map((c) => [c.label, c.trials, c.legs_run, c.attempts_per_leg])).toEqual([['alpha', 90, 30, '3'], ['beta', 90, 30, '3']]);
  });

  test('attempts that differ within a leg: per-leg means, an exact sign-flip test; pass@k and pass^k named', () => {
    const legs = filterLegs(all, { sample: { n: 12, seed: 5 } });
    const job = path.join(tmp.dir, 'mixed');
    writeCraftedJob(job, legs, 'alpha', 3, (i, k) => ({ fa: i < 6 && k === 1 ? 1 : 0 }));
    writeCraftedJob(job, legs, 'beta', 3, (i) => ({ fa: i < 6 ? 1 : 0 }));
    const configs = loadConfigurations([job]);
    const mean = primary(compareConfigurations(configs).paired, 'alpha', 'beta');
    // Six legs at 1/3 vs 1: every sign flip of six equal differences: p = 2/64.
    expect(mean).toMatchObject({ n: 12, reducer: 'mean', test: 'sign-flip exact', small_n: 'yes', discordant_b: 6, interval: 't' });
    expect(mean.p_value).toBeCloseTo(2 / 64, 12);
    expect(mean.diff).toBeCloseTo(6 * (2 / 3) / 12, 12);
    const any = primary(compareConfigurations(configs, { reducer: 'pass@k' }).paired, 'alpha', 'beta');
    expect(any).toMatchObject({ reducer: 'pass@k', diff: 0, p_value: 1 });
    const every = primary(compareConfigurations(configs, { reducer: 'pass^k' }).paired, 'alpha', 'beta');
    expect(every).toMatchObject({ reducer: 'pass^k', discordant_b: 6, test: 'McNemar exact' });
    expect(every.p_value).toBeCloseTo(2 / 64, 12);
  });

  test('a third configuration with 50 infra errors no longer removes legs from the other pair; its losses are counted and warned about', () => {
    const legs = filterLegs(all, { sample: { n: 100, seed: 4 } });
    const job = path.join(tmp.dir, 'infra');
    writeCraftedJob(job, legs, 'alpha', 1, (i) => ({ fa: i < 60 ? 1 : 0 }));
    writeCraftedJob(job, legs, 'beta', 1, (i) => ({ fa: i < 50 ? (i % 5 < 2 ? 1 : 0) : i % 5 === 4 ? 0 : 1 }));
    writeCraftedJob(job, legs, 'gamma', 1, (i) => (i >= 50 ? 'infra' : { fa: 1 }));
    const configs = loadConfigurations([job]);
    const result = compareConfigurations(configs);
    // Before: alpha vs beta on 50 legs, 100% vs 40%, p = 1.9e-9. Now on their 100 shared legs.
    const ab = primary(result.paired, 'alpha', 'beta');
    expect(ab).toMatchObject({ n: 100, a_mean: 0.6, b_mean: 0.6, p_value: 1 });
    expect(primary(result.paired, 'alpha', 'gamma').n).toBe(50);
    expect(result.configurations.map((c) => [c.label, c.legs_lost_to_infra, c.infra_rate])).toEqual([['alpha', 0, 0], ['beta', 0, 0], ['gamma', 50, 0.5]]);
    expect(result.infraWarning).toMatch(/^WARNING: the configurations lost legs to infrastructure errors at different rates \(alpha 0\/100, beta 0\/100, gamma 50\/100\)/);
    const paired = result.tables.find((t) => t.id === 'paired')!;
    expect(paired.notes).toContain(result.infraWarning);
    expect(paired.notes).toContain('alpha vs beta: paired on the 100 legs both have a value for; left out: 0 run by only one, 0 lost to infrastructure errors by alpha, 0 lost to infrastructure errors by beta.');
    // --paper on the legs every configuration has a value for, labelled so (before: Table 11 alpha n = 100 beside a paired n of 50).
    expect(result.pairing.sharedLegs).toBe(50);
    const table11 = paperTables(configs, { legs: result.pairing.sharedLegIds }).find((t) => t.id === 'table11')!;
    expect(table11.rows.filter((r) => r.variant === '*' && r.metric === 'FA').map((r) => [r.config, r.n])).toEqual([['alpha', 50], ['beta', 50], ['gamma', 50]]);
    expect(table11.notes[0]).toMatch(/^On the 50 legs every configuration has a value for/);
    const own = paperTables(configs).find((t) => t.id === 'table11')!;
    expect(own.notes[0]).toMatch(/^Each configuration on its own scored trials, not on shared legs \(alpha 100 legs, 100 trials; beta 100 legs, 100 trials; gamma 50 legs, 50 trials\)/);
  });

  test('small slices: Newcombe intervals instead of [100, 100] and [-100, -100], flagged small; slices Holm-adjusted; frontier dominance only where significant', () => {
    const easy = filterLegs(all, { levels: ['easy'], variants: ['aar-linear'] }).slice(0, 14);
    const hard = filterLegs(all, { levels: ['hard'], variants: ['aar-linear'] }).slice(0, 8);
    const rest = filterLegs(all, { levels: ['medium'], variants: ['aar-linear'] }).slice(0, 78);
    const legs = [...easy, ...hard, ...rest];
    const job = path.join(tmp.dir, 'slices');
    const isEasy = (i: number): boolean => i < 14;
    const isHard = (i: number): boolean => i >= 14 && i < 22;
    writeCraftedJob(job, legs, 'alpha', 1, (i) => ({ fa: isEasy(i) ? 0 : isHard(i) ? 1 : i % 2 ? 1 : 0, cost: 0.01 }));
    writeCraftedJob(job, legs, 'beta', 1, (i) => ({ fa: isEasy(i) ? 1 : isHard(i) ? 0 : i % 2 ? 1 : 0, cost: 0.03 }));
    const result = compareConfigurations(loadConfigurations([job]));
    const slice = (level: string): PairedRow => result.paired.find((p) => p.metric === 'fa' && p.variant === '*' && p.level === level)!;
    expect(slice('easy')).toMatchObject({ n: 14, diff: 1, hi: 1, small_n: 'yes', interval: 'Newcombe' });
    expect(slice('easy').lo!).toBeCloseTo(0.6955, 3);
    expect(slice('hard')).toMatchObject({ n: 8, diff: -1, lo: -1, small_n: 'yes' });
    expect(slice('hard').hi!).toBeLessThan(-0.5);
    for (const p of result.paired) {
      // Two configurations: one primary test, so its Holm p is its p.
      if (p.role === 'primary') expect(p.p_holm).toBe(p.p_value);
      else if (p.p_value !== null) expect(p.p_holm!).toBeGreaterThanOrEqual(p.p_value);
    }
    expect(slice('easy').p_holm!).toBeGreaterThan(slice('easy').p_value!);
    // Overall: beta +6 pp (14 vs 8 discordant legs), p = 0.29, at three times the cost: not dominated, only ahead in estimate.
    const overall = primary(result.paired, 'alpha', 'beta');
    expect(overall.p_value!).toBeGreaterThan(0.05);
    const front = Object.fromEntries(result.frontier.map((f) => [f.label, f]));
    expect(front.alpha.dominated_by).toEqual([]);
    expect(front.beta.dominated_by).toEqual([]);
    expect(front.alpha.success_lo!).toBeLessThan(front.alpha.success!);
  });

  test('a significantly better configuration at no more spend dominates', () => {
    const legs = filterLegs(all, { sample: { n: 60, seed: 8 } });
    const job = path.join(tmp.dir, 'dominates');
    writeCraftedJob(job, legs, 'alpha', 1, (i) => ({ fa: i < 10 ? 1 : 0, cost: 0.02 }));
    writeCraftedJob(job, legs, 'beta', 1, (i) => ({ fa: i < 40 ? 1 : 0, cost: 0.01 }));
    const result = compareConfigurations(loadConfigurations([job]));
    expect(result.frontier.map((f) => [f.label, f.dominated_by])).toEqual([['alpha', ['beta']], ['beta', []]]);
  });

  describe('the budget check reads the rerun rule\'s meaning keys, the tools\' world and leg.json itself', () => {
    const legs = (): LoadedLeg[] => filterLegs(all, { sample: { n: 5, seed: 9 } });
    const pairWith = (name: string, changes: Record<string, unknown>, before?: (dir: string) => void): string[] => {
      const a = path.join(tmp.dir, `${name}-a`);
      const b = path.join(tmp.dir, `${name}-b`);
      writeCraftedJob(a, legs(), 'alpha', 1, () => ({ fa: 1 }));
      writeCraftedJob(b, legs(), 'beta', 1, () => ({ fa: 1 }), { job: { ...CRAFTED_JOB, ...changes } });
      before?.(b);
      return checkBudgets(loadConfigurations([a, b])).differences.map((d) => d.key);
    };

    test.each([
      ['instruction_template', { instruction_template: 'mine.md.tmpl' }, ['instruction_template']],
      ['resources.cpus', { resources: { cpus: 2 } }, ['resources.cpus']],
      ['network', { network: 'bridge' }, ['network']],
      ['models.prices', { models: { prices: 'prices.yaml' } }, ['models.prices']],
      ['models.timeout_s and max_attempts', { models: { timeout_s: 60, max_attempts: 1 } }, ['models.max_attempts', 'models.timeout_s']],
      ['tools.endpoints', { tools: { ...CRAFTED_JOB.tools, endpoints: { googleMaps: 'http://127.0.0.1:9' } } }, ['tools.endpoints.googleMaps']],
    ])('%s differs: listed (was: not checked)', (_name, changes, keys) => {
      expect(pairWith(_name.replace(/\W+/g, '-'), changes)).toEqual(keys);
    });

    test('a leg.json edited after the run is seen: the file is hashed, not trial.json\'s sha256 trusted', () => {
      const keys = pairWith('edited', {}, (dir) => {
        const trial = listTrialDirs(dir)[0];
        writeFileSync(path.join(trial, 'leg.json'), JSON.stringify({ edited: true }));
      });
      expect(keys).toEqual(['legs (sha256 of leg.json)', 'leg.json unchanged since the run']);
    });

    test('the tools\' world: replay stores compared by content (a copy elsewhere is equal, another store is not)', () => {
      const store = path.join(tmp.dir, 'store-1');
      mkdirSync(path.join(store, 'maps_geocode', 'ab'), { recursive: true });
      writeFileSync(path.join(store, 'maps_geocode', 'ab', 'abc.json'), '{"text": "one"}');
      cpSync(store, path.join(tmp.dir, 'store-copy'), { recursive: true });
      const other = path.join(tmp.dir, 'store-2');
      cpSync(store, other, { recursive: true });
      writeFileSync(path.join(other, 'maps_geocode', 'ab', 'abc.json'), '{"text": "two"}');
      const replay = (s: string): Record<string, unknown> => ({ tools: { mode: 'replay', store: s, output_limit: 8000 } });
      const run = (name: string, sa: string, sb: string): string[] => {
        const a = path.join(tmp.dir, `${name}-a`);
        const b = path.join(tmp.dir, `${name}-b`);
        writeCraftedJob(a, legs(), 'alpha', 1, () => ({ fa: 1 }), { job: { ...CRAFTED_JOB, ...replay(sa) } });
        writeCraftedJob(b, legs(), 'beta', 1, () => ({ fa: 1 }), { job: { ...CRAFTED_JOB, ...replay(sb) } });
        return checkBudgets(loadConfigurations([a, b])).differences.map((d) => d.key);
      };
      expect(run('world-same', store, path.join(tmp.dir, 'store-copy'))).toEqual([]);
      expect(run('world-other', store, other)).toEqual(['tools world (store content, or live and its dates)']);
      // Provenance is shown beside the world, not compared: the same entries recorded by another session are the same world.
      const recorded = path.join(tmp.dir, 'store-recorded');
      cpSync(store, recorded, { recursive: true });
      mkdirSync(path.join(recorded, 'provenance'));
      writeFileSync(path.join(recorded, 'world.json'), JSON.stringify({ format: 'aar-harness/world@1', created: '2026-03-01T00:00:00.000Z', harness_version: '0.1.0', origin: 'live' }));
      writeFileSync(path.join(recorded, 'provenance', 's.json'), JSON.stringify({ started: '2026-03-01T00:00:00.000Z', harness_version: '0.1.0', mode: 'record', endpoints: {}, host: 'h', pid: 1 }));
      expect(run('world-provenance', store, recorded)).toEqual([]);
      const a = path.join(tmp.dir, 'world-shown-a');
      writeCraftedJob(a, legs(), 'alpha', 1, () => ({ fa: 1 }), { job: { ...CRAFTED_JOB, ...replay(recorded) } });
      const row = checkBudgets(loadConfigurations([a, path.join(tmp.dir, 'world-provenance-a')])).checked.find((d) => d.key.startsWith('tools world provenance'))!;
      expect(Object.values(row.values).sort()).toEqual(['live, created 2026-03-01 by aar-harness 0.1.0, 1 recording sessions', 'none recorded']);
    });
  });

  test('notes travel: CSV has them as comment rows; the budgets table is never empty; the model in every Markdown table; p-values one way', () => {
    const legs = filterLegs(all, { sample: { n: 20, seed: 6 } });
    const a = path.join(tmp.dir, 'notes-a');
    const b = path.join(tmp.dir, 'notes-b');
    writeCraftedJob(a, legs, 'alpha', 1, (i) => ({ fa: i % 2 ? 1 : 0 }), { model: 'model-x' });
    writeCraftedJob(b, legs, 'beta', 1, (i) => ({ fa: i % 3 ? 1 : 0 }), { job: { ...CRAFTED_JOB, timeout_s: 300 }, model: 'model-y' });
    const configs = loadConfigurations([a, b]);
    const result = compareConfigurations(configs, { allowUnequal: true });
    const tables = [...result.tables, ...paperTables(configs, { budgets: result.budgets, legs: result.pairing.sharedLegIds })];
    const csv = renderTables(tables, 'csv');
    const blocks = csv.split('\n\n');
    expect(blocks.length).toBe(tables.length);
    for (const block of blocks) expect(block.split('\n')[1]).toMatch(/^# note: UNEQUAL BUDGETS \(--allow-unequal\): timeout_s/);
    expect(csv).toContain('# note: notes-a:alpha vs notes-b:beta: paired on the 20 legs');
    const md = renderTables(tables, 'md');
    expect(md).not.toContain('(no rows)');
    expect(md).toContain('### Budgets: checked, and they DIFFER');
    for (const section of md.split('\n### ').slice(1)) expect(section).toMatch(/model-x/);
    const pairedSection = md.split('\n### ').find((x) => x.startsWith('Paired differences'))!;
    const pCells = pairedSection.split('\n').filter((l) => l.startsWith('| notes-a:alpha | notes-b:beta |')).map((l) => l.split(' | ')[17]);
    expect(pCells.length).toBeGreaterThan(0);
    for (const p of pCells) expect(p).toMatch(/^(<0\.001|[01]\.\d{3}|-)$/);
  });

  test("--paper: Table 7 counts legs as legs (was trials: 90 for 30 legs); Table 3 adds the paper's three-way split of wrong trials", () => {
    const legs = filterLegs(all, { sample: { n: 30, seed: 3 } });
    const job = path.join(tmp.dir, 'paper-views');
    // Wrong trials: legs 0-9 lost on navigation (PVR 0.2), 10-19 on tools (PVR 0.8, RCR 0.2), 20-29 on computation (both 0.9).
    writeCraftedJob(job, legs, 'alpha', 3, (i) => (i < 10 ? { fa: 0, pvr: 0.2, rcr: 0 } : i < 20 ? { fa: 0, pvr: 0.8, rcr: 0.2 } : { fa: 0, pvr: 0.9, rcr: 0.9 }));
    const tables = paperTables(loadConfigurations([job]));
    const table7 = tables.find((t) => t.id === 'table7')!;
    const row = table7.rows.find((r) => r.variant === '*' && r.template === 'geocode_elevation')!;
    const containing = legs.filter((l) => l.leg.stops.some((s) => s.stop_type === 'tool' && s.bridge.tool_chain.map((x) => x.tool_name).join(' > ') === row.chain));
    expect(row).toMatchObject({ legs: containing.length, trials: 3 * containing.length });
    const table3 = tables.find((t) => t.id === 'table3')!;
    const overall = table3.rows.find((r) => r.variant === '*' && r.level === 'all')!;
    expect([overall.paper_navigation, overall.paper_tool_use, overall.paper_computation]).toEqual([10 / 30, 10 / 30, 10 / 30]);
  });
});
