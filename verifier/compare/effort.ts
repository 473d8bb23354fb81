import { meanOf } from '../../common/stats.js';
import type { TrialResult } from '../results.js';

/** What a configuration spent per trial (means over the trials where the figure is known). */
export interface EffortRow {
  label: string;
  trials: number;
  /** Input + output tokens. */
  tokens: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  /** Total cost of these trials, where known. */
  total_cost_usd: number | null;
  wall_s: number | null;
  /** The agent's wall time summed over the trials, in hours. */
  agent_hours: number;
  steps: number | null;
  tool_calls: number | null;
}

const wallOf = (t: TrialResult): number => t.record.timings.agent_s ?? t.record.timings.total_s;

/** `stepsOf`: the family's own step measure of a scored trial (FamilyReport.stepsOf); without it, the run's model calls. */
export function effortOf(label: string, trials: readonly TrialResult[], stepsOf?: (score: object) => number | null): EffortRow {
  const run = trials.map((t) => t.record.run);
  const tokens = run.map((r) => (r.input_tokens === null && r.output_tokens === null ? null : (r.input_tokens ?? 0) + (r.output_tokens ?? 0)));
  const costs = run.map((r) => r.cost_usd).filter((c): c is number => c !== null);
  const toolCalls = trials.map((t) => (t.score as { tool_calls?: unknown } | null)?.tool_calls).map((v) => (typeof v === 'number' ? v : null));
  return {
    label,
    trials: trials.length,
    tokens: meanOf(tokens),
    input_tokens: meanOf(run.map((r) => r.input_tokens)),
    output_tokens: meanOf(run.map((r) => r.output_tokens)),
    cost_usd: meanOf(costs),
    total_cost_usd: costs.length ? costs.reduce((a, b) => a + b, 0) : null,
    wall_s: meanOf(trials.map(wallOf)),
    agent_hours: trials.reduce((a, t) => a + wallOf(t), 0) / 3600,
    steps: meanOf(stepsOf ? trials.map((t) => (t.score ? stepsOf(t.score) : null)) : run.map((r) => r.steps)),
    tool_calls: meanOf(toolCalls),
  };
}

export interface FrontierRow {
  label: string;
  /** Which spend the frontier is drawn on: cost_usd when every configuration's is known, else tokens, else wall_s. */
  axis: 'cost_usd' | 'tokens' | 'wall_s';
  spend: number | null;
  success: number | null;
  /** 95% interval of the success rate (Wilson for 0/1 per leg). */
  success_lo: number | null;
  success_hi: number | null;
  /** Configurations that spend no more and have a significantly higher success rate (their paired test, p < 0.05). */
  dominated_by: string[];
  /** Configurations that spend no more and are at least as good in point estimate, but not significantly better. */
  not_significantly_beaten_by: string[];
}

/**
 * Which configurations are dominated on spend per trial vs success: another one spends no more and its
 * success rate is significantly higher (`significantlyBetter`, the pair's paired test). A point estimate
 * ahead without significance is listed apart, never as dominance.
 */
export function costAccuracyFrontier(
  points: readonly { label: string; effort: EffortRow; success: { mean: number | null; lo: number | null; hi: number | null } }[],
  significantlyBetter: (better: string, worse: string) => boolean,
): FrontierRow[] {
  const axis: FrontierRow['axis'] = points.every((p) => p.effort.cost_usd !== null) ? 'cost_usd' : points.every((p) => p.effort.tokens !== null) ? 'tokens' : 'wall_s';
  const rows: FrontierRow[] = points.map((p) => ({
    label: p.label, axis, spend: p.effort[axis], success: p.success.mean, success_lo: p.success.lo, success_hi: p.success.hi, dominated_by: [], not_significantly_beaten_by: [],
  }));
  for (const row of rows) {
    if (row.spend === null || row.success === null) continue;
    for (const other of rows) {
      if (other === row || other.spend === null || other.success === null || other.spend > row.spend) continue;
      if (significantlyBetter(other.label, row.label)) row.dominated_by.push(other.label);
      else if (other.success >= row.success && (other.spend < row.spend || other.success > row.success)) row.not_significantly_beaten_by.push(other.label);
    }
  }
  return rows;
}
