import type { LegView } from './leg-view.js';
import type { ReferenceFields } from './reference.js';
import type { CallTally } from './tally.js';
import type { RunFacts } from '../../../trial/run-facts.js';

/**
 * Why a trial that is not correct failed: how its run ended when it ended early (killed at the timeout,
 * out of steps without an answer, the agent crashed), else the paper's navigation / tool use / computation.
 */
export type Diagnosis = 'timeout' | 'step_limit' | 'agent_error' | 'navigation' | 'tool_use' | 'computation';

/** The AAR paper's metrics (sections 5 and 6.4), with our canonical page identity. */
export interface PaperMetrics {
  fa: 0 | 1;
  pvr: number | null;
  rcr: number | null;
  steps: number | null;
  step_budget: number;
  step_limit_hit: boolean;
  tool_calls: number;
  timed_out: boolean | null;
  wall_s: number | null;
  input_tokens: number | null;
  output_tokens: number | null;
  cached_tokens: number | null;
  cost_usd: number | null;
  /** Why a trial that is not correct failed; null for a correct trial. */
  diagnosis: Diagnosis | null;
  /** Correct with pvr < 0.3 (appendix K). */
  shortcut: boolean;
  /** Wrong with intermediate_rate >= 0.8 (appendix H). */
  near_miss: boolean;
}

/** Fraction of page stops whose page the agent fetched (by URL, or by the page a fetch resolved to). */
export function pitStopVisitRate(view: LegView, tally: CallTally): number | null {
  return view.canonicalPages.size ? tally.canonicalPagesVisited.size / view.canonicalPages.size : null;
}

/** Fraction of `tool` stops whose every tool-chain step has a matching call; one call may serve several stops. */
export function roadblockCompletionRate(view: LegView, tally: CallTally): number | null {
  return view.toolStopChains.length ? tally.completedToolStops / view.toolStopChains.length : null;
}

/** How the run ended, when that, not the agent's route, explains a wrong trial. */
export interface RunEndingFacts {
  timedOut?: boolean | null;
  stepLimitHit?: boolean;
  /** The agent process exit status (non-zero without a timeout: it crashed). */
  exitCode?: number | null;
}

export function diagnose(fa: 0 | 1, pvr: number | null, rcr: number | null, ending: RunEndingFacts = {}): Diagnosis | null {
  if (fa === 1) return null;
  if (ending.timedOut) return 'timeout';
  if (ending.stepLimitHit) return 'step_limit';
  if (ending.exitCode !== undefined && ending.exitCode !== null && ending.exitCode !== 0) return 'agent_error';
  if (pvr !== null && pvr < 0.5) return 'navigation';
  if (rcr !== null && rcr < 0.5) return 'tool_use';
  return 'computation';
}

/** `stepBudget`: the budget the trial ran under (its record's step_budget); absent: the leg's B. */
export function computePaperMetrics(view: LegView, tally: CallTally, reference: ReferenceFields, run: Partial<RunFacts>, stepBudget = view.stepBudget): PaperMetrics {
  const fa: 0 | 1 = reference.status === 'correct' ? 1 : 0;
  const pvr = pitStopVisitRate(view, tally);
  const rcr = roadblockCompletionRate(view, tally);
  const steps = run.steps ?? null;
  const noValidAnswer = reference.status === 'unknown';
  const stepLimitHit = noValidAnswer && (run.stepLimitHit === true || (steps !== null && steps >= stepBudget));
  return {
    fa,
    pvr,
    rcr,
    steps,
    step_budget: stepBudget,
    step_limit_hit: stepLimitHit,
    tool_calls: tally.calls,
    timed_out: run.timedOut ?? null,
    wall_s: run.wallS ?? null,
    input_tokens: run.inputTokens ?? null,
    output_tokens: run.outputTokens ?? null,
    cached_tokens: run.cachedTokens ?? null,
    cost_usd: run.costUsd ?? null,
    diagnosis: diagnose(fa, pvr, rcr, { timedOut: run.timedOut, stepLimitHit, exitCode: run.exitCode }),
    shortcut: fa === 1 && pvr !== null && pvr < 0.3,
    near_miss: fa === 0 && reference.intermediate_rate !== null && reference.intermediate_rate >= 0.8,
  };
}
