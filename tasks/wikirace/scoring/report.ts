import type { FamilyReport, ReportSlice } from '../../family.js';
import { meanOf, proportion, type Estimate } from '../../../common/stats.js';
import { SPLITS } from '../schema.js';
import type { GameScore } from './score.js';

/** The figures of one report row: the paper's Table 1 (success, suboptimal steps, loops) and appendix D (tokens, cost). */
export interface WikiraceFigures {
  success: Estimate;
  /** Mean steps beyond the optimal over successful games; null (N/A) when none succeeded. */
  suboptimal_steps: number | null;
  steps: number | null;
  /** Share of games that visited some page twice. */
  loop_rate: number | null;
  /** Share of looping games that still reached the target; null when none looped. */
  recovery_rate: number | null;
  /** Share of games without a loop that reached the target (the paper, section 5.2); null when all looped. */
  loop_free_success: number | null;
  /** Success had the move limit been T, for T = 5, 10, ..., 30 (Figure 8a), from the moves each game made. */
  success_by_limit: Record<number, number | null>;
  /** Mean moves beyond the optimal over successful games, by optimal length 3 to 8 (Figure 8c). */
  extra_steps_by_length: Record<number, number | null>;
  /** Mean over games of the most visits of one page. */
  max_visits: number | null;
  /** Per model call (the paper's step): prompt + completion tokens, completion tokens alone, cost. */
  tokens_per_step: number | null;
  output_tokens_per_step: number | null;
  cost_per_step: number | null;
  tokens_per_game: number | null;
  cost_per_game: number | null;
  timeout_rate: number | null;
  /** Mean model calls per game (the gateway's count). */
  model_calls: number | null;
  /** Share of games whose model-call budget ran out before the move limit (score `end: model_calls`). */
  calls_out_rate: number | null;
}

/** The step limits T of the success-by-limit view (a game that succeeded in m moves counts for every T >= m). */
export const STEP_LIMITS = [5, 10, 15, 20, 25, 30] as const;
const PATH_LENGTHS = [3, 4, 5, 6, 7, 8] as const;

function summarize(scores: readonly GameScore[]): WikiraceFigures {
  const n = scores.length;
  const looping = scores.filter((s) => s.looped);
  return {
    success: proportion(scores.filter((s) => s.success === 1).length, n),
    suboptimal_steps: meanOf(scores.map((s) => s.suboptimal_steps)),
    steps: meanOf(scores.map((s) => s.steps)),
    loop_rate: n ? looping.length / n : null,
    recovery_rate: looping.length ? looping.filter((s) => s.success === 1).length / looping.length : null,
    loop_free_success: n > looping.length ? scores.filter((s) => !s.looped && s.success === 1).length / (n - looping.length) : null,
    success_by_limit: Object.fromEntries(STEP_LIMITS.map((t) => [t, n ? scores.filter((s) => s.success === 1 && s.steps <= t).length / n : null])),
    extra_steps_by_length: Object.fromEntries(PATH_LENGTHS.map((l) => [l, meanOf(scores.filter((s) => s.optimal_length === l).map((s) => s.suboptimal_steps))])),
    max_visits: meanOf(scores.map((s) => s.max_visits)),
    tokens_per_step: meanOf(scores.map((s) => s.tokens_per_step)),
    output_tokens_per_step: meanOf(scores.map((s) => s.output_tokens_per_step ?? null)),
    cost_per_step: meanOf(scores.map((s) => s.cost_per_step)),
    tokens_per_game: meanOf(scores.map((s) => s.tokens)),
    cost_per_game: meanOf(scores.map((s) => s.cost_usd)),
    timeout_rate: n ? scores.filter((s) => s.timed_out).length / n : null,
    model_calls: meanOf(scores.map((s) => s.model_calls ?? null)),
    calls_out_rate: n ? scores.filter((s) => s.end === 'model_calls').length / n : null,
  };
}

const pct = (v: number | null): string => (v === null ? '-' : (100 * v).toFixed(1));
const num = (v: number | null, digits = 2): string => (v === null ? 'N/A' : v.toFixed(digits));
const money = (v: number | null): string => (v === null ? '-' : `$${v.toFixed(4)}`);
const withInterval = (e: Estimate): string => (e.mean === null ? '-' : `${pct(e.mean)} [${pct(e.lo)}, ${pct(e.hi)}]`);

/** WikiRace's report, per configuration and split: success with its 95% Wilson interval, then the paper's behaviour figures. */
export const WIKIRACE_REPORT: FamilyReport<GameScore, WikiraceFigures> = {
  levelOrder: SPLITS,
  steps: { of: (score) => score.steps, note: 'steps: moves made per game (the game\'s trajectory), not model calls.' },
  summarize,
  markdownHeader: ['success %', 'subopt. steps', 'steps', 'loops %', 'recovery %', 'max visits', 'loop-free success %', 'tokens/step', 'generated/step', 'cost/step', 'tokens/game', 'cost/game', 'calls/game', 'calls out %', 'infra'],
  markdownCells(r: ReportSlice & WikiraceFigures): string[] {
    return [
      withInterval(r.success),
      num(r.suboptimal_steps),
      num(r.steps, 1),
      pct(r.loop_rate),
      r.recovery_rate === null ? 'N/A' : pct(r.recovery_rate),
      num(r.max_visits),
      r.loop_free_success === null ? 'N/A' : pct(r.loop_free_success),
      r.tokens_per_step === null ? '-' : r.tokens_per_step.toFixed(0),
      r.output_tokens_per_step === null ? '-' : r.output_tokens_per_step.toFixed(0),
      money(r.cost_per_step),
      r.tokens_per_game === null ? '-' : r.tokens_per_game.toFixed(0),
      money(r.cost_per_game),
      r.model_calls === null ? '-' : r.model_calls.toFixed(1),
      pct(r.calls_out_rate),
      String(r.infra_errors),
    ];
  },
  flatten(r: ReportSlice & WikiraceFigures): Record<string, string | number | null> {
    return {
      success: r.success.mean, success_lo: r.success.lo, success_hi: r.success.hi,
      suboptimal_steps: r.suboptimal_steps, steps: r.steps,
      loop_rate: r.loop_rate, recovery_rate: r.recovery_rate, max_visits: r.max_visits,
      tokens_per_step: r.tokens_per_step, output_tokens_per_step: r.output_tokens_per_step, cost_per_step: r.cost_per_step,
      tokens_per_game: r.tokens_per_game, cost_per_game: r.cost_per_game,
      timeout_rate: r.timeout_rate,
      model_calls: r.model_calls, calls_out_rate: r.calls_out_rate,
      loop_free_success: r.loop_free_success,
      ...Object.fromEntries(STEP_LIMITS.map((t) => [`success_at_${t}`, r.success_by_limit[t] ?? null])),
      ...Object.fromEntries(PATH_LENGTHS.map((l) => [`extra_steps_at_length_${l}`, r.extra_steps_by_length[l] ?? null])),
    };
  },
};
