import { scoreGame, type GameScore } from '../../../tasks/wikirace/scoring/score.js';
import { WIKIRACE_REPORT } from '../../../tasks/wikirace/scoring/report.js';
import { trajectoryLineText } from '../../../tasks/wikirace/game/trajectory.js';

const TASK = JSON.stringify({
  family: 'wikirace', id: 'easy/pair_001', split: 'easy', source: 'A', target: 'D', optimal_length: 3,
  graph: '../graph', graph_sha256: 'a'.repeat(64), synthetic: true,
});
const path = (...pages: string[]): string =>
  pages.slice(1).map((to, i) => trajectoryLineText({ step: i + 1, from: pages[i]!, to, offered: 3, ts: 1 })).join('');

describe('WikiRace scoring from the stored trajectory', () => {
  test('an optimal game: success, 0 suboptimal steps, no loop; tokens and cost per step (model call) from the run', () => {
    const score = scoreGame(TASK, path('A', 'B', 'C', 'D'), { steps: 3, inputTokens: 900, outputTokens: 300, costUsd: 0.03 });
    expect(score).toMatchObject({ success: 1, steps: 3, move_limit: 30, end: 'target', suboptimal_steps: 0, looped: false, max_visits: 1, final_page: 'D', tokens: 1200, output_tokens: 300, tokens_per_step: 400, output_tokens_per_step: 100, problem: null });
    expect(score.cost_per_step).toBeCloseTo(0.01);
  });

  test("a reply asked again is a step of its own: 3 moves in 4 model calls are 4 steps' tokens, not 3 moves'", () => {
    // The paper counts per step (one call per step); dividing by moves would charge the retry's tokens to a move.
    const score = scoreGame(TASK, path('A', 'B', 'C', 'D'), { steps: 4, inputTokens: 1200, outputTokens: 400, costUsd: 0.04 }, 90, true);
    expect(score).toMatchObject({ model_calls: 4, tokens_per_step: 400, output_tokens_per_step: 100 });
    expect(score.cost_per_step).toBeCloseTo(0.01);
  });

  test("an agent without a model (the oracle, random): its own step count is no model calls, and no tokens per step", () => {
    // The oracle's run.steps are its tool calls (its log's "oracle: 4 tool calls"), not model calls.
    expect(scoreGame(TASK, path('A', 'B', 'C', 'D'), { steps: 4 }, 90, false)).toMatchObject({ model_calls: null, tokens_per_step: null, end: 'target' });
    expect(scoreGame(TASK, path('A', 'B', 'C'), { steps: 3 }, 90, false)).toMatchObject({ model_calls: null, end: 'stopped' });
    // Unknown (a record older than agent.uses_model, not a baseline): the run's count stays.
    expect(scoreGame(TASK, path('A', 'B', 'C', 'D'), { steps: 4 }, 90, null).model_calls).toBe(4);
  });

  test('a game that loops back to the source and still succeeds: 2 suboptimal steps, max visits 2', () => {
    expect(scoreGame(TASK, path('A', 'B', 'A', 'B', 'C', 'D'))).toMatchObject({ success: 1, steps: 5, suboptimal_steps: 2, looped: true, max_visits: 2 });
  });

  test('no move, or a game stopped short: failure with suboptimal steps null', () => {
    expect(scoreGame(TASK, null)).toMatchObject({ success: 0, steps: 0, suboptimal_steps: null, looped: false, max_visits: 1, final_page: 'A', tokens_per_step: null });
    expect(scoreGame(TASK, path('A', 'B', 'C'))).toMatchObject({ success: 0, final_page: 'C' });
  });

  test('a trajectory that does not chain from the source is a problem and scores 0', () => {
    const forged = path('A', 'B') + trajectoryLineText({ step: 2, from: 'X', to: 'D', offered: 1, ts: 1 });
    expect(scoreGame(TASK, forged)).toMatchObject({ success: 0, problem: expect.stringMatching(/line 2: moves from 'X' but the game was at 'B'/) });
    expect(scoreGame(TASK, '{"step": 1}\n').problem).toMatch(/^trajectory.jsonl: line 1: field from/);
    expect(scoreGame(JSON.stringify({ ...JSON.parse(TASK), max_moves: 2 }), path('A', 'B', 'C', 'D')).success).toBe(0);
  });
});

describe('how a failed game ended: its moves against the move limit, its model calls against their budget', () => {
  const walk = (moves: number): string => path('A', ...Array.from({ length: moves }, (_, i) => (i % 2 ? 'A' : 'B')));

  test('30 moves used is the move limit, whatever the model calls', () => {
    expect(scoreGame(TASK, walk(30), { steps: 90, stepLimitHit: true }, 90)).toMatchObject({ success: 0, steps: 30, move_limit: 30, model_calls: 90, model_call_budget: 90, end: 'move_limit' });
  });

  test('the model-call budget used up before 30 moves says so, from the gateway\'s refusal or its count', () => {
    expect(scoreGame(TASK, walk(29), { steps: 30, stepLimitHit: true }, 30)).toMatchObject({ steps: 29, model_calls: 30, model_call_budget: 30, end: 'model_calls' });
    expect(scoreGame(TASK, walk(12), { steps: 90, stepLimitHit: null }, 90)).toMatchObject({ end: 'model_calls' });
    expect(scoreGame(TASK, walk(12), { steps: 40, stepLimitHit: false }, 90)).toMatchObject({ end: 'stopped', model_calls: 40 });
    expect(scoreGame(TASK, walk(12), { steps: 40, timedOut: true }, 90)).toMatchObject({ end: 'timeout' });
    expect(scoreGame(TASK, null)).toMatchObject({ end: 'stopped', model_calls: null, model_call_budget: null });
  });

  test('a task file may set its own move limit', () => {
    const five = JSON.stringify({ ...JSON.parse(TASK), max_moves: 5 });
    expect(scoreGame(five, walk(5), { steps: 5 }, 15)).toMatchObject({ move_limit: 5, end: 'move_limit' });
  });
});

describe('the WikiRace report (paper Table 1 and appendix D)', () => {
  const game = (over: Partial<GameScore>): GameScore => ({
    split: 'easy', success: 0, steps: 30, move_limit: 30, model_calls: null, model_call_budget: null, end: 'move_limit', optimal_length: 3, suboptimal_steps: null, looped: false, max_visits: 1, final_page: 'X',
    tokens: null, output_tokens: null, cost_usd: null, tokens_per_step: null, output_tokens_per_step: null, cost_per_step: null, timed_out: false, problem: null, ...over,
  });

  test('success with its interval, suboptimal steps over successes, loops, recovery, max visits', () => {
    const figures = WIKIRACE_REPORT.summarize([
      game({ success: 1, steps: 3, suboptimal_steps: 0 }),
      game({ success: 1, steps: 7, suboptimal_steps: 4, looped: true, max_visits: 3 }),
      game({ looped: true, max_visits: 5 }),
      game({ looped: true, max_visits: 3 }),
    ]);
    expect(figures.success).toMatchObject({ n: 4, mean: 0.5 });
    expect(figures.success.lo!).toBeLessThan(0.5);
    expect(figures).toMatchObject({ suboptimal_steps: 2, loop_rate: 0.75, max_visits: 3 });
    expect(figures.recovery_rate).toBeCloseTo(1 / 3);
    const row = { agent: 'random', model: '-', variant: '*', level: 'easy', trials: 4, n: 4, infra_errors: 0, ...figures };
    expect(WIKIRACE_REPORT.markdownCells(row).slice(0, 6)).toEqual(['50.0 [15.0, 85.0]', '2.00', '17.5', '75.0', '33.3', '3.00']);
  });

  test('model calls per game and the share of games whose model-call budget ran out', () => {
    const figures = WIKIRACE_REPORT.summarize([game({ model_calls: 90 }), game({ steps: 20, model_calls: 30, end: 'model_calls' })]);
    expect(figures).toMatchObject({ model_calls: 60, calls_out_rate: 0.5 });
    const row = { agent: 'a', model: 'm', variant: '*', level: 'easy', trials: 2, n: 2, infra_errors: 0, ...figures };
    const header = WIKIRACE_REPORT.markdownHeader;
    const cells = WIKIRACE_REPORT.markdownCells(row);
    expect(cells[header.indexOf('calls/game')]).toBe('60.0');
    expect(cells[header.indexOf('calls out %')]).toBe('50.0');
  });

  test('loop-free success, success had the move limit been T (from the moves made), extra steps by optimal length', () => {
    const figures = WIKIRACE_REPORT.summarize([
      game({ success: 1, steps: 3, suboptimal_steps: 0 }),
      game({ success: 1, steps: 12, optimal_length: 4, suboptimal_steps: 8, looped: true, max_visits: 2 }),
      game({ success: 1, steps: 26, optimal_length: 4, suboptimal_steps: 22 }),
      game({ looped: true, max_visits: 4 }),
      game({}),
    ]);
    expect(figures.loop_free_success).toBeCloseTo(2 / 3);
    expect(figures.success_by_limit).toEqual({ 5: 0.2, 10: 0.2, 15: 0.4, 20: 0.4, 25: 0.4, 30: 0.6 });
    expect(figures.extra_steps_by_length).toMatchObject({ 3: 0, 4: 15, 5: null });
    const row = { agent: 'a', model: 'm', variant: '*', level: 'easy', trials: 5, n: 5, infra_errors: 0, ...figures };
    expect(WIKIRACE_REPORT.markdownCells(row)[WIKIRACE_REPORT.markdownHeader.indexOf('loop-free success %')]).toBe('66.7');
    expect(WIKIRACE_REPORT.flatten(row)).toMatchObject({ loop_free_success: 2 / 3, success_at_5: 0.2, success_at_15: 0.4, success_at_30: 0.6, extra_steps_at_length_4: 15, extra_steps_at_length_8: null });
    expect(WIKIRACE_REPORT.summarize([game({ looped: true })]).loop_free_success).toBeNull();
  });

  test('no success: suboptimal steps N/A; no loop: recovery N/A', () => {
    const figures = WIKIRACE_REPORT.summarize([game({}), game({})]);
    expect(figures).toMatchObject({ suboptimal_steps: null, recovery_rate: null, loop_rate: 0 });
    const cells = WIKIRACE_REPORT.markdownCells({ agent: 'a', model: 'm', variant: '*', level: 'easy', trials: 2, n: 2, infra_errors: 0, ...figures });
    expect(cells[1]).toBe('N/A');
    expect(cells[4]).toBe('N/A');
  });
});
