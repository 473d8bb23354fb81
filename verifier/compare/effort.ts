import { meanOf } from '../../common/stats.js';
import type { TrialResult } from '../results.js';

/**
 * What a configuration spent on legs: per leg (every scored attempt of the leg summed: what pass@k's one
 * value cost) and per attempt, as means over the legs (attempts) where the figure is known.
 */
export interface EffortRow {
  label: string;
  legs: number;
  /** Scored attempts on those legs. */
  trials: number;
  /** Per leg, all its attempts: input + output tokens, each, cost and the agent's wall time. */
  tokens_per_leg: number | null;
  input_tokens_per_leg: number | null;
  output_tokens_per_leg: number | null;
  cost_usd_per_leg: number | null;
  wall_s_per_leg: number | null;
  /** Per attempt (one trial). */
  tokens_per_attempt: number | null;
  cost_usd_per_attempt: number | null;
  wall_s_per_attempt: number | null;
  /** Total cost of these trials, where known. */
  total_cost_usd: number | null;
  /** The agent's wall time summed over the trials, in hours. */
  agent_hours: number;
  /** Per attempt: the family's steps (or model calls) and tool calls. */
  steps: number | null;
  tool_calls: number | null;
}

const wallOf = (t: TrialResult): number => t.record.timings.agent_s ?? t.record.timings.total_s;
const tokensOf = (t: TrialResult): number | null => {
  const r = t.record.run;
  return r.input_tokens === null && r.output_tokens === null ? null : (r.input_tokens ?? 0) + (r.output_tokens ?? 0);
};

/** A leg's figure: the sum over its attempts, null unless every attempt's is known. */
function perLeg(legs: readonly (readonly TrialResult[])[], of: (t: TrialResult) => number | null): number | null {
  return meanOf(legs.map((attempts) => {
    const values = attempts.map(of);
    return values.every((v): v is number => typeof v === 'number' && Number.isFinite(v)) ? values.reduce((a, b) => a + b, 0) : null;
  }));
}

/** `legs`: each leg's scored attempts. `stepsOf`: the family's own step measure of a scored trial (FamilyReport.stepsOf); without it, the run's model calls. */
export function effortOf(label: string, legs: readonly (readonly TrialResult[])[], stepsOf?: (score: object) => number | null): EffortRow {
  const trials = legs.flat();
  const costs = trials.map((t) => t.record.run.cost_usd).filter((c): c is number => c !== null);
  const toolCalls = trials.map((t) => (t.score as { tool_calls?: unknown } | null)?.tool_calls).map((v) => (typeof v === 'number' ? v : null));
  return {
    label,
    legs: legs.length,
    trials: trials.length,
    tokens_per_leg: perLeg(legs, tokensOf),
    input_tokens_per_leg: perLeg(legs, (t) => t.record.run.input_tokens),
    output_tokens_per_leg: perLeg(legs, (t) => t.record.run.output_tokens),
    cost_usd_per_leg: perLeg(legs, (t) => t.record.run.cost_usd),
    wall_s_per_leg: perLeg(legs, wallOf),
    tokens_per_attempt: meanOf(trials.map(tokensOf)),
    cost_usd_per_attempt: meanOf(costs),
    wall_s_per_attempt: meanOf(trials.map(wallOf)),
    total_cost_usd: costs.length ? costs.reduce((a, b) => a + b, 0) : null,
    agent_hours: trials.reduce((a, t) => a + wallOf(t), 0) / 3600,
    steps: meanOf(stepsOf ? trials.map((t) => (t.score ? stepsOf(t.score) : null)) : trials.map((t) => t.record.run.steps)),
    tool_calls: meanOf(toolCalls),
  };
}

export type SpendAxis = 'cost_usd' | 'tokens' | 'wall_s';

export interface FrontierRow {
  label: string;
  /** Which spend the frontier is drawn on: cost_usd when every configuration's is known, else tokens, else wall_s. */
  axis: SpendAxis;
  /** `leg` (every attempt of a leg summed: pass@k and pass^k read them all) or `attempt` (mean: the value is one attempt's success). */
  spend_per: 'leg' | 'attempt';
  spend: number | null;
  /** The legs the success, its interval and the dominance tests are on: those every configuration has a value for. */
  legs: number;
  success: number | null;
  /** 95% interval of the success rate (Wilson for 0/1 per leg). */
  success_lo: number | null;
  success_hi: number | null;
  /** Configurations that spend no more and have a significantly higher success rate (the frontier's paired test on these legs, Holm-adjusted p < 0.05). */
  dominated_by: string[];
  /** Configurations that spend no more and are at least as good in point estimate, but not significantly better. */
  not_significantly_beaten_by: string[];
}

/** The spend of a configuration the frontier reads: per leg (all attempts) when the reducer reads every attempt, else per attempt. */
export function spendOf(effort: EffortRow, axis: SpendAxis, per: 'leg' | 'attempt'): number | null {
  return effort[`${axis === 'tokens' ? 'tokens' : axis}_per_${per}` as const];
}

/** The axis every configuration has a figure on: cost, else tokens, else the agent's wall time. */
export function spendAxis(efforts: readonly EffortRow[], per: 'leg' | 'attempt'): SpendAxis {
  const known = (axis: SpendAxis): boolean => efforts.every((e) => spendOf(e, axis, per) !== null);
  return known('cost_usd') ? 'cost_usd' : known('tokens') ? 'tokens' : 'wall_s';
}

/**
 * Which configurations are dominated on spend vs success: another one spends no more and its success rate
 * is significantly higher (`significantlyBetter`: the frontier's own paired test, on the same legs as the
 * success shown). A point estimate ahead without significance is listed apart, never as dominance.
 */
export function costAccuracyFrontier(
  points: readonly { label: string; effort: EffortRow; success: { n: number; mean: number | null; lo: number | null; hi: number | null } }[],
  per: 'leg' | 'attempt',
  significantlyBetter: (better: string, worse: string) => boolean,
): FrontierRow[] {
  const axis = spendAxis(points.map((p) => p.effort), per);
  const rows: FrontierRow[] = points.map((p) => ({
    label: p.label, axis, spend_per: per, spend: spendOf(p.effort, axis, per), legs: p.success.n,
    success: p.success.mean, success_lo: p.success.lo, success_hi: p.success.hi, dominated_by: [], not_significantly_beaten_by: [],
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
