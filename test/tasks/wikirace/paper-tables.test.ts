import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfigurations } from '../../../verifier/compare/select.js';
import { paperTables } from '../../../verifier/paper-tables/index.js';
import { ALPHA_GAMES as ALPHA, BETA_GAMES as BETA, writeCraftedWikiraceJob, type CraftedGame } from '../../helpers/crafted-wikirace.js';
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

  test("the family plugs its tables in through the seam; the AAR paper's Table 12 is not among them", () => {
    expect(tables.map((t) => t.id)).toEqual(['wikirace-table1', 'wikirace-figure1', 'wikirace-loops', 'wikirace-figure5', 'wikirace-figure8a', 'wikirace-figure8b', 'wikirace-figure8c']);
  });

  test('Table 1: success and suboptimal steps per split, tokens (all, and generated) per step', () => {
    expect(table('wikirace-table1').rows).toEqual([
      // alpha: suboptimal easy (0 + 2) / 2; one model call per move here: tokens per step mean(900 / 3, 1,200 / 6) = 250,
      // generated mean(300 / 3, 0 / 6) = 50; no cost recorded.
      { config: 'alpha', success_easy: 1, success_medium: 0, success_hard: 0, suboptimal_easy: 1, suboptimal_medium: null, suboptimal_hard: null, n_easy: 2, n_medium: 1, n_hard: 1, tokens_per_step: 250, generated_tokens_per_step: 50, cost_cents_per_step: null },
      { config: 'beta', success_easy: 0.5, success_medium: 1, success_hard: 0, suboptimal_easy: 1, suboptimal_medium: 0, suboptimal_hard: null, n_easy: 2, n_medium: 1, n_hard: 1, tokens_per_step: null, generated_tokens_per_step: null, cost_cents_per_step: null },
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

  test("Figure 5's line leaves out the baselines: the oracle's and random's points are shown, not fitted", () => {
    const job = path.join(tmp.dir, 'with-baselines');
    writeCraftedWikiraceJob(job, 'alpha', ALPHA);
    writeCraftedWikiraceJob(job, 'beta', BETA);
    // The oracle never loops and always wins; random loops and loses: fitted, they would pull the line.
    writeCraftedWikiraceJob(job, 'oracle', ALPHA.map((g) => ({ ...g, moves: [...Array.from({ length: g.optimal - 1 }, (_, i) => `P${i}`), 'T'] })), null);
    writeCraftedWikiraceJob(job, 'random', BETA.map((g) => ({ ...g, moves: ['B', 'A', 'B', 'A'] })), null);
    const t = paperTables(loadConfigurations([job])).find((x) => x.id === 'wikirace-figure5')!;
    expect(t.rows.filter((r) => r.fitted === 'no').map((r) => r.config)).toEqual(['oracle', 'oracle', 'oracle', 'random', 'random', 'random']);
    // The same line as alpha's and beta's six points alone (the test above).
    expect(t.notes.find((n) => n.startsWith('Least-squares'))).toContain('over the 6 points of model configurations (fitted: yes): success = 0.667 + -0.500 x loop_rate; slope 95% interval [-1.859, 0.859]');
    expect(t.notes).toContain('Shown, not fitted (no model: the built-in baselines, or an agent whose model the harness did not see): oracle, random.');
  });

  test('Figure 1: the probes under the job join their model configurations on the same graph; F1 against average success, the line and the gap', () => {
    const job = path.join(tmp.dir, 'with-probes');
    const GAMMA: CraftedGame[] = [
      { split: 'easy', pair: 1, source: 'A', target: 'T', optimal: 3, moves: ['B', 'C', 'T'] },
      { split: 'easy', pair: 2, source: 'A', target: 'T', optimal: 4, moves: ['B', 'C', 'D', 'T'] },
      { split: 'medium', pair: 3, source: 'A', target: 'T', optimal: 5, moves: ['B', 'C', 'D', 'E', 'T'] },
      { split: 'hard', pair: 4, source: 'A', target: 'T', optimal: 7, moves: ['B', 'C', 'D', 'E', 'F', 'G', 'T'] },
    ];
    writeCraftedWikiraceJob(job, 'alpha', ALPHA, 'model-a');
    writeCraftedWikiraceJob(job, 'beta', BETA, 'model-b');
    writeCraftedWikiraceJob(job, 'gamma', GAMMA, 'model-c');
    writeCraftedWikiraceJob(job, 'oracle', GAMMA, null);
    const graph = '0'.repeat(64); // the crafted tasks' graph_sha256
    const probe = (name: string, summary: object): void => {
      mkdirSync(path.join(job, 'probes', name), { recursive: true });
      writeFileSync(path.join(job, 'probes', name, 'summary.json'), JSON.stringify(summary));
    };
    const s = (model: string, f1: number, sha = graph) => ({ model, graph_sha256: sha, f1, precision: f1, recall: f1, asked: 1000, unparsed: 10, failed: 0 });
    probe('a', s('model-a', 0.4));
    probe('b', s('model-b', 0.6));
    probe('b-other-graph', s('model-b', 0.99, 'f'.repeat(64)));
    probe('c', s('model-c', 0.8));
    probe('broken', { model: 'model-x', f1: 'high' });
    const t = paperTables(loadConfigurations([job])).find((x) => x.id === 'wikirace-figure1')!;
    // Average success over the splits: alpha (1 + 0 + 0) / 3, beta (0.5 + 1 + 0) / 3, gamma 1. Points (0.4, 1/3),
    // (0.6, 1/2), (0.8, 1): slope 0.1333 / 0.08 = 5/3, intercept 11/18 - 1 = -7/18; gaps 1/18, -1/9, 1/18.
    expect(t.rows.map((r) => [r.config, r.model, r.probe, r.probe_f1, r.probe_answers, r.n])).toEqual([
      ['alpha', 'model-a', path.join('probes', 'a'), 0.4, 990, 4], ['beta', 'model-b', path.join('probes', 'b'), 0.6, 990, 4], ['gamma', 'model-c', path.join('probes', 'c'), 0.8, 990, 4],
    ]);
    const expected = [[1 / 3, 5 / 18, 1 / 18], [1 / 2, 11 / 18, -1 / 9], [1, 17 / 18, 1 / 18]];
    t.rows.forEach((r, i) => {
      expect(r.success).toBeCloseTo(expected[i]![0]!, 12);
      expect(r.fitted).toBeCloseTo(expected[i]![1]!, 12);
      expect(r.gap).toBeCloseTo(expected[i]![2]!, 12);
    });
    // Residuals 1/18, -2/18, 1/18: RSS 1/54; half-width t(1) 12.7062 x sqrt(1/54 / 0.08) = 6.1133.
    expect(t.notes.find((n) => n.startsWith('Least-squares'))).toContain('over the 3 configurations with a probe: success = -0.389 + 1.667 x F1; slope 95% interval [-4.447, 7.780]');
    expect(t.notes).toContain('No probe joined: oracle (no model).');
    expect(t.notes).toContain(`${path.join(job, 'probes', 'broken', 'summary.json')}: f1: Invalid input: expected number, received string`);
  });

  test('Figure 1 names two probes of one model on one graph instead of choosing', () => {
    const job = path.join(tmp.dir, 'two-probes');
    writeCraftedWikiraceJob(job, 'alpha', ALPHA, 'model-a');
    for (const name of ['first', 'second']) {
      mkdirSync(path.join(job, 'probes', name), { recursive: true });
      writeFileSync(path.join(job, 'probes', name, 'summary.json'), JSON.stringify({ model: 'model-a', f1: 0.5, precision: 0.5, recall: 0.5, asked: 10, unparsed: 0 }));
    }
    const t = paperTables(loadConfigurations([job])).find((x) => x.id === 'wikirace-figure1')!;
    expect(t.rows).toEqual([]);
    expect(t.notes.find((n) => n.startsWith('alpha: 2 probes of model-a'))).toContain('none joined; keep one');
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
