import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { taskFamily } from '../../../tasks/registry.js';
import { buildHtmlReport } from '../../../verifier/html/build.js';
import { htmlViewOf } from '../../../verifier/html/family-view.js';
import { wikiraceCharts } from '../../../verifier/html/wikirace/charts.js';
import { loadJobResults } from '../../../verifier/results.js';
import { ALPHA_GAMES, BETA_GAMES, writeCraftedWikiraceJob } from '../../helpers/crafted-wikirace.js';
import { tempDir } from '../../helpers/data.js';

const tmp = tempDir('aar-wikirace-html-');
afterAll(() => tmp.cleanup());
const job = path.join(tmp.dir, 'job');
beforeAll(() => {
  writeCraftedWikiraceJob(job, 'alpha', ALPHA_GAMES);
  writeCraftedWikiraceJob(job, 'beta', BETA_GAMES);
});

const TITLES = ['Success per split (Table 1)', 'Moves vs optimal length', 'Loop rate per split', 'Success vs loop frequency (Figure 5)', 'Recovery and maximum visitation (Figure 10)', 'Completion by move limit (Figure 8a)', 'Success vs links offered (Figure 8b)', 'Extra moves by optimal length (Figure 8c)'];

describe("WikiRace's HTML view: the paper's charts and tables in the report", () => {
  test('its own view (verifier/html/wikirace/view.ts): moves, loops and the verdict per game', async () => {
    const view = await htmlViewOf(taskFamily('wikirace'));
    expect(view.columns.map((c) => c.key)).toEqual(['success', 'moves', 'optimal', 'max_visits', 'model_calls', 'cost_usd', 'verdict']);
    const lost = loadJobResults(job).find((r) => r.record.trial_id === 'alpha__medium__pair_003__1')!;
    expect(view.cells(lost.score)).toMatchObject({ success: 0, moves: 4, optimal: 5, max_visits: 3, verdict: 'not reached: the agent stopped, looped' });
  });

  test("the charts carry the tables' figures: per-split success, Figure 5's points and line, Figure 8a-c", () => {
    const charts = wikiraceCharts(loadJobResults(job));
    expect(charts.map((c) => c.title)).toEqual(TITLES);
    // Moves vs optimal: one mark per configuration, optimal length, moves and outcome, sized by its games.
    const marks = (charts[1].spec.layer as { data: { values: { config: string; optimal: number; moves: number; outcome: string; games: number }[] } }[])[1].data.values;
    expect(marks.filter((m) => m.config === 'alpha (scripted)').map((m) => [m.optimal, m.moves, m.outcome, m.games])).toEqual([[3, 3, 'reached', 1], [4, 6, 'reached', 1], [7, 2, 'not reached', 1], [5, 4, 'not reached', 1]]);
    // Loop rates: alpha loops on easy pair 2 (B twice) and medium (A three times); beta on easy pair 2 and hard.
    const loops = (charts[2].spec.data as { values: { config: string; split: string; value: number }[] }).values;
    expect(loops.map((v) => [v.config, v.split, v.value])).toEqual([
      ['alpha (scripted)', 'easy', 0.5], ['alpha (scripted)', 'medium', 1], ['alpha (scripted)', 'hard', 0],
      ['beta (scripted)', 'easy', 0.5], ['beta (scripted)', 'medium', 0], ['beta (scripted)', 'hard', 1],
    ]);
    charts.splice(1, 2);
    const bySplit = (charts[0].spec.data as { values: { config: string; split: string; value: number }[] }).values;
    expect(bySplit.filter((v) => v.config === 'beta (scripted)').map((v) => [v.split, v.value])).toEqual([['easy', 0.5], ['medium', 1], ['hard', 0]]);
    // Figure 5: 6 points (2 configurations x 3 splits); the line of the table's note: slope -0.5, intercept 2/3.
    const [line, points] = charts[1].spec.layer as { data: { values: { loop_rate: number; success: number }[] } }[];
    expect(points.data.values).toHaveLength(6);
    expect(line.data.values[0].success).toBeCloseTo(2 / 3, 12);
    expect(line.data.values[1].success).toBeCloseTo(2 / 3 - 0.5, 12);
    expect(charts[1].note).toContain('slope -0.50, 95% interval -1.86 to 0.86');
    // Figure 10: recovery and maximum visitation per configuration and split, from the loop table.
    const fig10 = (charts[2].spec.data as { values: { config: string; split: string; recovery_rate: number | null; max_visits: number }[] }).values;
    expect(fig10.filter((v) => v.config === 'alpha (scripted)').map((v) => [v.split, v.recovery_rate, v.max_visits])).toEqual([['easy', 1, 1.5], ['medium', 0, 3], ['hard', null, 1]]);
    const links = (charts[4].spec.data as { values: { config: string; links: number; success_at_30: number }[] }).values;
    expect(links.map((v) => [v.config, v.links, v.success_at_30])).toEqual([['alpha (scripted)', 30, 1], ['alpha (scripted)', 50, 1], ['beta (scripted)', 30, 1], ['beta (scripted)', 50, 0]]);
  });

  test('Figure 1 is drawn when probes join the configurations: F1 against average success, and its line', () => {
    const probed = path.join(tmp.dir, 'probed');
    writeCraftedWikiraceJob(probed, 'alpha', ALPHA_GAMES, 'model-a');
    writeCraftedWikiraceJob(probed, 'beta', BETA_GAMES, 'model-b');
    writeCraftedWikiraceJob(probed, 'oracle', ALPHA_GAMES, null);
    for (const [name, model, f1] of [['a', 'model-a', 0.4], ['b', 'model-b', 0.6]] as const) {
      mkdirSync(path.join(probed, 'probes', name), { recursive: true });
      writeFileSync(path.join(probed, 'probes', name, 'summary.json'), JSON.stringify({ model, graph_sha256: '0'.repeat(64), f1, precision: f1, recall: f1, asked: 100, unparsed: 0 }));
    }
    const charts = wikiraceCharts(loadJobResults(probed));
    const figure1 = charts.find((c) => c.title === 'Probe F1 vs success (Figure 1)')!;
    const [line, points] = figure1.spec.layer as { data: { values: { config: string; f1: number; success: number }[] } }[];
    // alpha (1 + 0 + 0) / 3 at 0.4, beta (0.5 + 1 + 0) / 3 at 0.6: slope (1/2 - 1/3) / 0.2 = 5/6, the oracle has no point.
    expect(points.data.values.map((p) => [p.config, p.f1, p.success])).toEqual([['alpha (model-a)', 0.4, 1 / 3], ['beta (model-b)', 0.6, 0.5]]);
    expect(line.data.values[1].success - line.data.values[0].success).toBeCloseTo(5 / 6, 12);
    expect(figure1.note).toContain('over the 2 configurations with a probe');
    // Figure 5 draws the oracle hollow: shown, not fitted.
    const figure5 = charts.find((c) => c.title === 'Success vs loop frequency (Figure 5)')!;
    expect(figure5.note).toContain('hollow: baselines, shown but not fitted');
    const fig5Points = (figure5.spec.layer as { data: { values: { config: string; fitted: string }[] } }[])[1].data.values;
    expect(fig5Points.filter((p) => p.fitted === 'no').map((p) => p.config)).toEqual(['oracle', 'oracle', 'oracle']);
  });

  test('the report renders every chart to SVG and holds the paper tables', async () => {
    const html = await buildHtmlReport([job]);
    for (const title of TITLES) expect(html).toContain(title);
    expect((html.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(7);
    for (const id of ['wikirace-table1', 'wikirace-loops', 'wikirace-figure5', 'wikirace-figure8a', 'wikirace-figure8b', 'wikirace-figure8c']) expect(html).toContain(`data-table="${id}"`);
    // Figure 1's table says how to join a probe; the AAR paper's Table 12 is not WikiRace's.
    expect(html).toContain('Figure 1: world-knowledge probe F1 vs average success');
    expect(html).not.toContain('data-table="table12"');
  }, 60_000);
});
