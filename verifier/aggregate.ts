import type { TrialResult } from './results.js';
import type { TrialScore } from '../tasks/aar/scoring/score.js';
import { boundedMean, meanOf, proportion, type Estimate } from './stats.js';

/** One row of a report: one configuration (agent x model) on one slice of the legs. */
export interface AggregateRow {
  agent: string;
  model: string;
  /** `*` for all variants / all levels. */
  variant: string;
  level: string;
  /** Trials in the slice, scored or not. */
  trials: number;
  /** Scored trials (all but infrastructure errors). */
  n: number;
  infra_errors: number;
  fa: Estimate;
  pvr: Estimate;
  rcr: Estimate;
  intermediate_rate: number | null;
  steps: number | null;
  tool_calls: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  wall_s: number | null;
  step_limit_rate: number | null;
  timeout_rate: number | null;
  /** Shares among scored trials that are not correct. */
  diagnosis: { navigation: number | null; tool_use: number | null; computation: number | null };
  shortcuts: number;
  near_misses: number;
}

const LEVEL_ORDER = ['easy', 'medium', 'hard', 'extreme'];

function summarize(agent: string, model: string, variant: string, level: string, trials: TrialResult[]): AggregateRow {
  const scores = trials.map((t) => t.score).filter((s): s is TrialScore => s !== null);
  const n = scores.length;
  const rate = (count: number): number | null => (n ? count / n : null);
  const wrong = scores.filter((s) => s.fa === 0);
  const share = (d: string): number | null => (wrong.length ? wrong.filter((s) => s.diagnosis === d).length / wrong.length : null);
  const defined = (pick: (s: TrialScore) => number | null): number[] => scores.map(pick).filter((v): v is number => v !== null);
  return {
    agent,
    model,
    variant,
    level,
    trials: trials.length,
    n,
    infra_errors: trials.length - n,
    fa: proportion(scores.filter((s) => s.fa === 1).length, n),
    pvr: boundedMean(defined((s) => s.pvr)),
    rcr: boundedMean(defined((s) => s.rcr)),
    intermediate_rate: meanOf(scores.map((s) => s.intermediate_rate)),
    steps: meanOf(scores.map((s) => s.steps)),
    tool_calls: meanOf(scores.map((s) => s.tool_calls)),
    input_tokens: meanOf(scores.map((s) => s.input_tokens)),
    output_tokens: meanOf(scores.map((s) => s.output_tokens)),
    cost_usd: meanOf(scores.map((s) => s.cost_usd)),
    wall_s: meanOf(scores.map((s) => s.wall_s)),
    step_limit_rate: rate(scores.filter((s) => s.step_limit_hit).length),
    timeout_rate: rate(scores.filter((s) => s.timed_out).length),
    diagnosis: { navigation: share('navigation'), tool_use: share('tool_use'), computation: share('computation') },
    shortcuts: scores.filter((s) => s.shortcut).length,
    near_misses: scores.filter((s) => s.near_miss).length,
  };
}

const compareLevels = (a: string, b: string): number => {
  const ia = LEVEL_ORDER.indexOf(a);
  const ib = LEVEL_ORDER.indexOf(b);
  return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
};

/**
 * Rows per configuration: all legs, then per variant, then per variant x level.
 */
export function aggregate(results: readonly TrialResult[]): AggregateRow[] {
  const configs = new Map<string, TrialResult[]>();
  for (const r of results) {
    const key = `${r.record.agent.id}\u0000${r.record.agent.model ?? ''}`;
    configs.set(key, [...(configs.get(key) ?? []), r]);
  }
  const rows: AggregateRow[] = [];
  for (const [key, trials] of [...configs].sort(([a], [b]) => a.localeCompare(b))) {
    const [agent, model] = key.split('\u0000');
    rows.push(summarize(agent, model || '-', '*', '*', trials));
    const variants = [...new Set(trials.map((t) => t.record.leg.variant))].sort();
    for (const variant of variants) {
      const inVariant = trials.filter((t) => t.record.leg.variant === variant);
      if (variants.length > 1) rows.push(summarize(agent, model || '-', variant, '*', inVariant));
      const levels = [...new Set(inVariant.map((t) => t.record.leg.level))].sort(compareLevels);
      for (const level of levels) {
        rows.push(summarize(agent, model || '-', variant, level, inVariant.filter((t) => t.record.leg.level === level)));
      }
    }
  }
  return rows;
}
