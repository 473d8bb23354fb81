import path from 'node:path';
import { loadConfigurations } from '../../../verifier/compare/select.js';
import { paperTables } from '../../../verifier/paper-tables/index.js';
import { ALPHA_GAMES as ALPHA, BETA_GAMES as BETA, writeCraftedWikiraceJob } from '../../helpers/crafted-wikirace.js';
import { tempDir } from '../../helpers/data.js';

const tmp = tempDir('aar-wikirace-paper-');
afterAll(() => tmp.cleanup());

describe("the LLM-WikiRace paper's views from crafted games (figures computed by hand)", () => {
  let tables: ReturnType<typeof paperTables>;
  beforeAll(() => {
    const job = path.join(tmp.dir, 'job');
    writeCraftedWikiraceJob(job, 'alpha', ALPHA);
    writeCraftedWikiraceJob(job, 'beta', BETA);
    tables = paperTables(loadConfigurations([job]));
  });
  const table = (id: string) => tables.find((t) => t.id === id)!;

  test('the family plugs its tables in through the seam, before Table 12', () => {
    expect(tables.map((t) => t.id)).toEqual(['wikirace-table1', 'wikirace-loops', 'wikirace-figure5', 'wikirace-figure8a', 'wikirace-figure8b', 'wikirace-figure8c', 'table12']);
  });

  test('Table 1: success and suboptimal steps per split, tokens per move', () => {
    expect(table('wikirace-table1').rows).toEqual([
      // alpha: suboptimal easy (0 + 2) / 2; tokens per move mean(900 / 3, 1,200 / 6) = 250; no cost recorded.
      { config: 'alpha', success_easy: 1, success_medium: 0, success_hard: 0, suboptimal_easy: 1, suboptimal_medium: null, suboptimal_hard: null, n_easy: 2, n_medium: 1, n_hard: 1, tokens_per_step: 250, cost_cents_per_step: null },
      { config: 'beta', success_easy: 0.5, success_medium: 1, success_hard: 0, suboptimal_easy: 1, suboptimal_medium: 0, suboptimal_hard: null, n_easy: 2, n_medium: 1, n_hard: 1, tokens_per_step: null, cost_cents_per_step: null },
    ]);
  });

  test('the loop table: loop frequency, recovery, maximum visitation, loop-free success', () => {
    const rows = table('wikirace-loops').rows;
    // alpha overall: loops in games 2 and 3 (2 of 4), one of them won; max visits 1, 2, 3, 1; loop-free games 1 (won) and 4 (lost).
    expect(rows.find((r) => r.config === 'alpha' && r.split === 'all')).toEqual({ config: 'alpha', split: 'all', n: 4, success: 0.5, loop_rate: 0.5, recovery_rate: 0.5, max_visits: 1.75, loop_free_success: 0.5 });
    expect(rows.find((r) => r.config === 'alpha' && r.split === 'easy')).toEqual({ config: 'alpha', split: 'easy', n: 2, success: 1, loop_rate: 0.5, recovery_rate: 1, max_visits: 1.5, loop_free_success: 1 });
    // beta hard: one game, looped (B and C twice), lost: no loop-free game.
    expect(rows.find((r) => r.config === 'beta' && r.split === 'hard')).toEqual({ config: 'beta', split: 'hard', n: 1, success: 0, loop_rate: 1, recovery_rate: 0, max_visits: 2, loop_free_success: null });
  });

  test('Figure 5: one point per configuration and split, and the least-squares line with its slope interval', () => {
    const t = table('wikirace-figure5');
    expect(t.rows.map((r) => [r.config, r.split, r.loop_rate, r.success])).toEqual([
      ['alpha', 'easy', 0.5, 1], ['alpha', 'medium', 1, 0], ['alpha', 'hard', 0, 0],
      ['beta', 'easy', 0.5, 0.5], ['beta', 'medium', 0, 1], ['beta', 'hard', 1, 0],
    ]);
    // x mean 0.5, y mean 2.5/6, Sxx 1, Sxy -0.5: slope -0.5, intercept 2/3; residual sum of squares 138/144;
    // slope's half-width t(4) 2.7764 x sqrt(138/144 / 4 / 1) = 1.35897.
    const half = 2.7764 * Math.sqrt(138 / 144 / 4);
    expect(t.notes.find((n) => n.startsWith('Least-squares'))).toContain(`success = 0.667 + -0.500 x loop_rate; slope 95% interval [${(-0.5 - half).toFixed(3)}, ${(-0.5 + half).toFixed(3)}]`);
    expect((-0.5 - half).toFixed(3)).toBe('-1.859');
  });

  test('Figure 8a-c: completion by move limit T, success by links offered, extra moves by optimal length', () => {
    const a = table('wikirace-figure8a').rows;
    // alpha's length-4 game won in 6 moves: not within 5, within 10 and beyond.
    expect(a.find((r) => r.config === 'alpha' && r.optimal_length === 4)).toEqual({ config: 'alpha', optimal_length: 4, n: 1, T5: 0, T10: 1, T15: 1, T20: 1, T25: 1, T30: 1 });
    expect(a.find((r) => r.config === 'beta' && r.optimal_length === 5)).toEqual({ config: 'beta', optimal_length: 5, n: 1, T5: 1, T10: 1, T15: 1, T20: 1, T25: 1, T30: 1 });
    expect(a.filter((r) => r.config === 'beta').map((r) => r.optimal_length)).toEqual([3, 4, 5, 7]);
    expect(table('wikirace-figure8b').rows).toEqual([
      { config: 'alpha', links: 30, n: 1, success_at_30: 1 },
      { config: 'alpha', links: 50, n: 1, success_at_30: 1 },
      { config: 'beta', links: 30, n: 1, success_at_30: 1 },
      { config: 'beta', links: 50, n: 1, success_at_30: 0 },
    ]);
    expect(table('wikirace-figure8c').rows.filter((r) => r.config === 'alpha')).toEqual([
      { config: 'alpha', optimal_length: 3, games: 1, successes: 1, extra_steps: 0 },
      { config: 'alpha', optimal_length: 4, games: 1, successes: 1, extra_steps: 2 },
      { config: 'alpha', optimal_length: 5, games: 1, successes: 0, extra_steps: null },
      { config: 'alpha', optimal_length: 7, games: 1, successes: 0, extra_steps: null },
    ]);
  });
});
