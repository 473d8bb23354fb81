import path from 'node:path';
import { writeSyntheticJob } from '../../../bench/synthetic-trials.js';
import { filterLegs } from '../../../tasks/aar/filter.js';
import { loadLegs, type LoadedLeg } from '../../../tasks/aar/load.js';
import type { TrialScore } from '../../../tasks/aar/scoring/score.js';
import type { DataTable } from '../../../common/table.js';
import { checkBudgets } from '../../../verifier/compare/budgets.js';
import { loadConfigurations, type Configuration } from '../../../verifier/compare/select.js';
import { paperTables } from '../../../verifier/paper-tables/index.js';
import { AAR_DATA_DIR, describeWithData, tempDir } from '../../helpers/data.js';

const JOB = { name: 'paper', timeout_s: 600, budget: { steps: 'auto' }, tools: { mode: 'live', output_limit: 8000 } };

describeWithData("the AAR paper's tables from job results", () => {
  const tmp = tempDir('aar-paper-tables-');
  let legs: LoadedLeg[];
  let configs: Configuration[];
  let tables: Map<string, DataTable>;
  beforeAll(async () => {
    legs = filterLegs((await loadLegs(AAR_DATA_DIR)).legs, { sample: { n: 120, seed: 11 } });
    const job = path.join(tmp.dir, 'job');
    writeSyntheticJob(job, legs, 4, { withScores: true, agent: 'alpha', job: JOB });
    writeSyntheticJob(job, legs, 5, { withScores: true, agent: 'beta', job: JOB, spend: 2 });
    configs = loadConfigurations([job]);
    tables = new Map(paperTables(configs).map((t) => [t.id, t]));
  });
  afterAll(() => tmp.cleanup());

  const scoresOf = (label: string): TrialScore[] => configs.find((c) => c.label === label)!.trials.map((t) => t.score as TrialScore);
  const rows = (id: string, match: Record<string, unknown>) => tables.get(id)!.rows.filter((r) => Object.entries(match).every(([k, v]) => r[k] === v));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

  test('every view, in the paper order, each with its columns', () => {
    expect([...tables.keys()]).toEqual(['table11', 'figure5a', 'table3', 'table7', 'table8', 'table9', 'shortcuts', 'figure6', 'table12']);
    for (const t of tables.values()) for (const r of t.rows) expect(Object.keys(r).sort()).toEqual([...t.columns].sort());
  });

  test('Table 11: FA, PVR, RCR overall and per level equal the means of the trials\' scores', () => {
    const alpha = scoresOf('alpha');
    const [fa] = rows('table11', { config: 'alpha', variant: '*', metric: 'FA' });
    expect(fa.overall).toBeCloseTo(mean(alpha.map((s) => s.fa)), 12);
    expect(fa.n).toBe(120);
    const trials = configs[0].trials;
    const extreme = trials.filter((t) => t.record.leg.level === 'extreme').map((t) => (t.score as TrialScore).pvr!);
    expect(rows('table11', { config: 'alpha', variant: '*', metric: 'PVR' })[0].extreme).toBeCloseTo(mean(extreme), 12);
  });

  test('Table 3: correct and the six diagnoses are shares of all trials that add up to 1; timeouts are not navigation', () => {
    for (const r of tables.get('table3')!.rows) {
      const total = ['correct', 'navigation', 'tool_use', 'computation', 'timeout', 'step_limit', 'agent_error'].reduce((a, k) => a + (r[k] as number), 0);
      expect(total).toBeCloseTo(1, 12);
    }
    const beta = scoresOf('beta');
    const [all] = rows('table3', { config: 'beta', variant: '*', level: 'all' });
    expect(all.timeout).toBeCloseTo(beta.filter((s) => s.timed_out && s.fa === 0).length / beta.length, 12);
    expect(all.timeout as number).toBeGreaterThan(0);
  });

  test("Table 7: a template is named by its tool stop's chain (and output_key); N counts the legs containing it", () => {
    const chain = 'maps_geocode > maps_elevation';
    const containing = legs.filter((l) => l.leg.stops.some((s) => s.stop_type === 'tool' && s.bridge.tool_chain.map((x) => x.tool_name).join(' > ') === chain));
    const [row] = rows('table7', { config: 'alpha', variant: '*', template: 'geocode_elevation', chain });
    expect(row.legs).toBe(containing.length);
    const ids = new Set(containing.map((l) => l.id));
    const fa = configs[0].trials.filter((t) => ids.has(t.record.leg.id)).map((t) => (t.score as TrialScore).fa);
    expect(row.fa).toBeCloseTo(mean(fa), 12);
  });

  test('Table 8: every trial falls in one leg-length bin', () => {
    for (const config of ['alpha', 'beta']) {
      const n = rows('table8', { config, variant: '*' }).reduce((a, r) => a + (r.n as number), 0);
      expect(n).toBe(120);
    }
  });

  test('Table 9: FA among trials with PVR >= 0.8, and with PVR and RCR >= 0.8', () => {
    const alpha = scoresOf('alpha');
    const high = alpha.filter((s) => s.pvr !== null && s.pvr >= 0.8);
    const both = high.filter((s) => s.rcr !== null && s.rcr >= 0.8);
    expect(rows('table9', { config: 'alpha', variant: '*' })[0]).toMatchObject({ legs_pvr_high: high.length, trials_pvr_high: high.length, legs_both_high: both.length, trials_both_high: both.length });
    expect(rows('table9', { config: 'alpha', variant: '*' })[0].fa_given_both_high).toBeCloseTo(mean(both.map((s) => s.fa)), 12);
  });

  test('shortcuts, near-misses, Linear -> DAG and Table 12', () => {
    const alpha = scoresOf('alpha');
    expect(rows('shortcuts', { config: 'alpha', variant: '*' })[0]).toMatchObject({ shortcuts: alpha.filter((s) => s.shortcut).length, near_misses: alpha.filter((s) => s.near_miss).length });
    const [fa] = rows('figure6', { config: 'alpha', metric: 'FA' });
    expect(fa.change).toBeCloseTo((fa.dag as number) - (fa.linear as number), 12);
    expect((fa.n_linear as number) + (fa.n_dag as number)).toBe(120);
    const hours = configs[0].trials.reduce((a, t) => a + (t.record.timings.agent_s ?? 0), 0) / 3600;
    expect(rows('table12', { config: 'alpha' })[0].agent_hours).toBeCloseTo(hours, 12);
    expect((rows('table12', { config: 'beta' })[0].tokens as number) / (rows('table12', { config: 'alpha' })[0].tokens as number)).toBeGreaterThan(1.5);
  });

  test('unequal budgets mark every paper table too', () => {
    const marked = paperTables(configs, { budgets: { equal: false, differences: [{ key: 'timeout_s', values: {} }] } });
    for (const t of marked) expect(t.notes[0]).toMatch(/^UNEQUAL BUDGETS/);
    expect(checkBudgets(configs).equal).toBe(true);
  });
});
