import path from 'node:path';
import { loadLegs, type LoadedLeg } from '../../../../tasks/aar/load.js';
import { templateOf } from '../../../../tasks/aar/paper-tables/templates.js';
import type { DataTable } from '../../../../common/table.js';
import { loadConfigurations } from '../../../../verifier/compare/select.js';
import { paperTables } from '../../../../verifier/paper-tables/index.js';
import { writeCraftedJob } from '../../../helpers/crafted-jobs.js';
import { call, toolLog } from '../../../helpers/legs.js';
import { AAR_DATA_DIR, describeWithData, tempDir } from '../../../helpers/data.js';

test("templates: the paper's names where the chain and output_key tell them; several names where nothing does", () => {
  expect(templateOf([{ tool_name: 'python_execute_code', output_key: 'days' }]).name).toBe('date_computation');
  expect(templateOf([{ tool_name: 'python_execute_code', output_key: 'converted' }]).name).toBe('math_conversion');
  expect(templateOf([{ tool_name: 'python_execute_code', output_key: 'merged' }])).toMatchObject({ name: 'diamond_merge', outsidePaper: true });
  expect(templateOf([{ tool_name: 'python_execute_code' }])).toMatchObject({ name: 'date_computation | math_conversion | diamond_merge', ambiguous: true });
  expect(templateOf([{ tool_name: 'maps_geocode' }, { tool_name: 'weather_historical', arguments: { select: ['daily.snowfall_sum[0]'] } }]).name).toBe('historical_snowfall');
  expect(templateOf([{ tool_name: 'maps_geocode' }, { tool_name: 'maps_elevation', output_key: null }]).name).toBe('geocode_elevation');
  expect(templateOf([{ tool_name: 'maps_reverse_geocode' }])).toMatchObject({ name: 'maps_reverse_geocode', outsidePaper: true, ambiguous: false });
  expect(templateOf([{ tool_name: 'stock_volume' }])).toMatchObject({ name: 'stock_volume', outsidePaper: false });
});

type Stop = LoadedLeg['leg']['stops'][number];
const chainOf = (s: Stop) => s.bridge.tool_chain.map((x) => x.tool_name).join(' > ');
const keyOf = (s: Stop) => s.bridge.tool_chain[s.bridge.tool_chain.length - 1]?.output_key;
const toolStops = (l: LoadedLeg, chain: string, key?: string) => l.leg.stops.filter((s) => s.stop_type === 'tool' && chainOf(s) === chain && (key === undefined || keyOf(s) === key));

describeWithData("the paper's views: Table 7's own RCR and names, Figure 5a's weighting (crafted jobs on real legs)", () => {
  const tmp = tempDir('aar-paper-views-');
  let all: LoadedLeg[];
  beforeAll(async () => {
    all = (await loadLegs(AAR_DATA_DIR)).legs;
  });
  afterAll(() => tmp.cleanup());
  const table = (tables: DataTable[], id: string) => tables.find((t) => t.id === id)!;

  test("Table 7: date_computation and math_conversion apart (were pooled as python_execute_code); rcr is the template's own (was the leg's)", () => {
    const linear = all.filter((l) => l.variant === 'aar-linear');
    // Leg A: population, nearby POI and date stops; leg B: a conversion stop, no population stop.
    const legA = linear.find((l) => toolStops(l, 'countries_population').length && toolStops(l, 'maps_search_places', 'poi_count').length && toolStops(l, 'python_execute_code', 'days').length)!;
    const legB = linear.find((l) => toolStops(l, 'python_execute_code', 'converted').length && !toolStops(l, 'countries_population').length && !toolStops(l, 'python_execute_code', 'days').length)!;
    const populationCalls = toolStops(legA, 'countries_population').map((s) => call('countries_population', { country: s.bridge.tool_chain[0].arguments.country }));
    const job = path.join(tmp.dir, 'table7');
    // Attempt 1 on each leg: every population stop's call and one python_execute_code call; attempt 2: no tool call at all.
    writeCraftedJob(job, [legA, legB], 'alpha', 2, (i, k) => ({
      fa: k === 1 ? 1 : 0, pvr: 1, rcr: 0.25,
      toolLog: k === 1 ? toolLog(...(i === 0 ? populationCalls : []), call('python_execute_code', { code: 'print(1)' })) : '',
    }));
    const rows = table(paperTables(loadConfigurations([job])), 'table7').rows;
    const row = (template: string) => rows.find((r) => r.template === template)!;
    expect(rows.some((r) => r.template === 'python_execute_code')).toBe(false);
    expect(row('date_computation')).toMatchObject({ chain: 'python_execute_code', legs: 1, trials: 2, stops: 2 * toolStops(legA, 'python_execute_code', 'days').length, fa: 0.5, template_rcr: 0.5, leg_rcr: 0.25 });
    expect(row('math_conversion')).toMatchObject({ legs: 1 + (toolStops(legA, 'python_execute_code', 'converted').length ? 1 : 0), template_rcr: 0.5 });
    // Population: done in attempt 1 only (1, then 0); nearby POI: never called (0). The leg's RCR, 25%, was shown for both.
    expect(row('country_population')).toMatchObject({ chain: 'countries_population', legs: 1, trials: 2, fa: 0.5, template_rcr: 0.5, leg_rcr: 0.25 });
    expect(row('nearby_poi_count')).toMatchObject({ chain: 'maps_search_places', template_rcr: 0, leg_rcr: 0.25 });
    expect(table(paperTables(loadConfigurations([job])), 'table7').notes.join(' ')).toMatch(/Every template was told apart/);
  });

  test("Table 7's names on the released data: every tool stop of the 1,400 legs is named by one of the paper's templates or the DAG's merge, none ambiguous", () => {
    const names = new Map<string, number>();
    for (const l of all) for (const s of l.leg.stops.filter((x) => x.stop_type === 'tool')) {
      const t = templateOf(s.bridge.tool_chain);
      expect(t).toMatchObject({ ambiguous: false });
      expect(t.outsidePaper).toBe(t.name === 'diamond_merge');
      names.set(t.name, (names.get(t.name) ?? 0) + 1);
    }
    // 15 of the paper's 17 occur in the released legs (no geocode_weather_historical, no crypto_volume), and the merge.
    expect(names.size).toBe(16);
    expect([names.has('geocode_weather_historical'), names.has('crypto_volume')]).toEqual([false, false]);
    expect(names.get('diamond_merge')).toBe(1138);
  });

  test("Table 7's note names only what is not the paper's: the DAG's merge stop, not stock_volume (whose chain is its name)", () => {
    const stock = all.find((l) => l.variant === 'aar-linear' && toolStops(l, 'stock_volume').length)!;
    const merge = all.find((l) => toolStops(l, 'python_execute_code', 'merged').length)!;
    const job = path.join(tmp.dir, 'outside');
    writeCraftedJob(job, [stock, merge], 'alpha', 1, () => ({ fa: 0, toolLog: '' }));
    const t7 = table(paperTables(loadConfigurations([job])), 'table7');
    expect(t7.rows.find((r) => r.variant === '*' && r.template === 'diamond_merge')).toMatchObject({ legs: 1, template_rcr: 0 });
    expect(t7.notes.find((n) => n.startsWith('Not among'))).toBe("Not among the paper's 17 templates: diamond_merge (diamond_merge: AAR-DAG's python_execute_code stop that combines two branches).");
  });

  test('Figure 5a: the variants weighted by their legs (4 legs: 3 linear, 1 DAG), not pooled over trials', () => {
    const legs = [...all.filter((l) => l.variant === 'aar-linear').slice(0, 3), all.find((l) => l.variant === 'aar-dag')!];
    const job = path.join(tmp.dir, 'figure5a');
    // Linear: leg 0 (1, 1), leg 1 (1, infra), leg 2 (0, 0), PVR 0.5, RCR 0.2; DAG: leg 3 (1, 0), PVR 1, RCR 0.6.
    const fa = [[1, 1], [1, null], [0, 0], [1, 0]] as const;
    writeCraftedJob(job, legs, 'alpha', 2, (i, k) => {
      const f = fa[i][k - 1];
      return f === null ? 'infra' : { fa: f, pvr: i < 3 ? 0.5 : 1, rcr: i < 3 ? 0.2 : 0.6 };
    });
    const tables = paperTables(loadConfigurations([job]));
    const rows = table(tables, 'figure5a').rows;
    const metric = (m: string) => rows.find((r) => r.metric === m)!;
    // FA per leg first: linear legs 1, 1, 0 -> 2/3 (pooling the 5 trials gave 3/5, counting leg 0 twice and
    // leg 1 once); DAG 1/2; weighted (2/3 x 3 + 0.5 x 1) / 4 = 0.625 (pooled over the 7 trials: 4/7).
    expect(metric('FA')).toMatchObject({ config: 'alpha', dag: 0.5, legs: 4, legs_linear: 3, legs_dag: 1, trials: 7 });
    expect(metric('FA').linear).toBeCloseTo(2 / 3, 12);
    expect(metric('FA').weighted).toBeCloseTo(0.625, 12);
    expect(metric('PVR').weighted).toBeCloseTo((0.5 * 3 + 1) / 4, 12);
    expect(metric('RCR').weighted).toBeCloseTo((0.2 * 3 + 0.6) / 4, 12);
    // Table 11 too is per leg first: legs 1, 1, 0, 0.5 -> 0.625 (was 4/7 over the trials); n 7 trials on 4 legs.
    expect(table(tables, 'table11').rows.find((r) => r.variant === '*' && r.metric === 'FA')).toMatchObject({ n: 7, legs: 4 });
    expect(table(tables, 'table11').rows.find((r) => r.variant === '*' && r.metric === 'FA')!.overall).toBeCloseTo(0.625, 12);
    // Table 3's shares likewise: wrong on leg 2 (both attempts) and half of leg 3 -> (0 + 0 + 1 + 0.5) / 4.
    expect(table(tables, 'table3').rows.find((r) => r.variant === '*' && r.level === 'all')!.correct).toBeCloseTo(0.625, 12);
  });

  test("Table 7's template RCR and FA are per leg first: a leg with an attempt lost to infrastructure counts once", () => {
    // Two linear legs with a population stop: leg A attempts (done, not done), leg B (done, infra). RCR 1 or 0
    // marks every stop done or not without a tool log. Per leg (0.5 + 1) / 2 = 0.75; over trials it was 2/3.
    const [legA, legB] = all.filter((l) => l.variant === 'aar-linear' && toolStops(l, 'countries_population').length).slice(0, 2);
    const job = path.join(tmp.dir, 'table7-legs');
    const outcome = [[1, 0], [1, null]] as const;
    writeCraftedJob(job, [legA, legB], 'alpha', 2, (i, k) => {
      const v = outcome[i][k - 1];
      return v === null ? 'infra' : { fa: v, pvr: 1, rcr: v, toolLog: '' };
    });
    const row = table(paperTables(loadConfigurations([job])), 'table7').rows.find((r) => r.template === 'country_population')!;
    expect(row).toMatchObject({ legs: 2, trials: 3, fa: 0.75, template_rcr: 0.75, leg_rcr: 0.75 });
  });
});
