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

const TITLES = ['Success per split (Table 1)', 'Moves vs optimal length', 'Loop rate per split', 'Success vs loop frequency (Figure 5)', 'Completion by move limit (Figure 8a)', 'Success vs links offered (Figure 8b)', 'Extra moves by optimal length (Figure 8c)'];

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
    const links = (charts[3].spec.data as { values: { config: string; links: number; success_at_30: number }[] }).values;
    expect(links.map((v) => [v.config, v.links, v.success_at_30])).toEqual([['alpha (scripted)', 30, 1], ['alpha (scripted)', 50, 1], ['beta (scripted)', 30, 1], ['beta (scripted)', 50, 0]]);
  });

  test('the report renders every chart to SVG and holds the paper tables', async () => {
    const html = await buildHtmlReport([job]);
    for (const title of TITLES) expect(html).toContain(title);
    expect((html.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(7);
    for (const id of ['wikirace-table1', 'wikirace-loops', 'wikirace-figure5', 'wikirace-figure8a', 'wikirace-figure8b', 'wikirace-figure8c']) expect(html).toContain(`data-table="${id}"`);
  }, 60_000);
});
