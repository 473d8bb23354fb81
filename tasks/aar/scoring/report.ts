import type { FamilyReport, ReportSlice } from '../../family.js';
import { boundedMean, meanOf, proportion, type Estimate } from '../../../common/stats.js';
import { LEVELS } from '../schema.js';
import type { Diagnosis } from './paper.js';
import type { TrialScore } from './score.js';

/** The figures of one report row: FA/PVR/RCR with intervals, costs, and the failure diagnosis. */
export interface AarFigures {
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
  /** Shares among scored trials that are not correct; timeout, step_limit and agent_error: runs that ended early. */
  diagnosis: Record<Diagnosis, number | null>;
  shortcuts: number;
  near_misses: number;
  /** Tool-log lines the verifier could not read (skipped, summed over the trials). */
  log_lines_skipped: number;
}

function summarize(scores: readonly TrialScore[]): AarFigures {
  const n = scores.length;
  const rate = (count: number): number | null => (n ? count / n : null);
  const wrong = scores.filter((s) => s.fa === 0);
  const share = (d: string): number | null => (wrong.length ? wrong.filter((s) => s.diagnosis === d).length / wrong.length : null);
  const defined = (pick: (s: TrialScore) => number | null): number[] => scores.map(pick).filter((v): v is number => v !== null);
  return {
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
    diagnosis: {
      navigation: share('navigation'), tool_use: share('tool_use'), computation: share('computation'),
      timeout: share('timeout'), step_limit: share('step_limit'), agent_error: share('agent_error'),
    },
    shortcuts: scores.filter((s) => s.shortcut).length,
    near_misses: scores.filter((s) => s.near_miss).length,
    log_lines_skipped: scores.reduce((sum, s) => sum + (s.log_lines_skipped ?? 0), 0),
  };
}

const pct = (v: number | null): string => (v === null ? '-' : `${(100 * v).toFixed(1)}`);
const num = (v: number | null, digits = 1): string => (v === null ? '-' : v.toFixed(digits));
const withInterval = (e: Estimate): string => (e.mean === null ? '-' : `${pct(e.mean)} [${pct(e.lo)}, ${pct(e.hi)}]`);

/** AAR's report: percentages with 95% intervals in brackets (shared/docs/METRICS.md). */
export const AAR_REPORT: FamilyReport<TrialScore, AarFigures> = {
  levelOrder: LEVELS,
  compareMetrics: [
    { name: 'fa', binary: true, of: (s) => s.fa },
    { name: 'pvr', binary: false, of: (s) => s.pvr },
    { name: 'rcr', binary: false, of: (s) => s.rcr },
  ],
  summarize,
  markdownHeader: ['FA %', 'PVR %', 'RCR %', 'steps', 'tool calls', 'step limit %', 'timeouts %', 'infra', 'nav / tool / comp %', 'ended early: time / steps / crash %'],
  markdownCells(r: ReportSlice & AarFigures): string[] {
    const d = r.diagnosis;
    return [
      withInterval(r.fa), withInterval(r.pvr), withInterval(r.rcr),
      num(r.steps), num(r.tool_calls), pct(r.step_limit_rate), pct(r.timeout_rate), String(r.infra_errors),
      `${pct(d.navigation)} / ${pct(d.tool_use)} / ${pct(d.computation)}`,
      `${pct(d.timeout)} / ${pct(d.step_limit)} / ${pct(d.agent_error)}`,
    ];
  },
  flatten(r: ReportSlice & AarFigures): Record<string, string | number | null> {
    return {
      fa: r.fa.mean, fa_lo: r.fa.lo, fa_hi: r.fa.hi,
      pvr: r.pvr.mean, pvr_lo: r.pvr.lo, pvr_hi: r.pvr.hi, pvr_n: r.pvr.n,
      rcr: r.rcr.mean, rcr_lo: r.rcr.lo, rcr_hi: r.rcr.hi, rcr_n: r.rcr.n,
      intermediate_rate: r.intermediate_rate, steps: r.steps, tool_calls: r.tool_calls,
      input_tokens: r.input_tokens, output_tokens: r.output_tokens, cost_usd: r.cost_usd, wall_s: r.wall_s,
      step_limit_rate: r.step_limit_rate, timeout_rate: r.timeout_rate,
      diag_navigation: r.diagnosis.navigation, diag_tool_use: r.diagnosis.tool_use, diag_computation: r.diagnosis.computation,
      diag_timeout: r.diagnosis.timeout, diag_step_limit: r.diagnosis.step_limit, diag_agent_error: r.diagnosis.agent_error,
      shortcuts: r.shortcuts, near_misses: r.near_misses, log_lines_skipped: r.log_lines_skipped,
    };
  },
};
