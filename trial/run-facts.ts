import { z } from 'zod';

/**
 * The run facts: what a trial's run used and how it ended, besides its answer and tool log. One shape from
 * the agent adapters (what their logs say) and the model gateway (what it counted), through trial.json, to
 * the score. In trial.json they are spread over `run` (snake_case), `status` and `timings`; the conversion
 * both ways is here and nowhere else.
 */
export interface RunFacts {
  /** Model turns (or, for agents without a model, the agent's own count of steps). */
  steps: number | null;
  /** The run reached its step budget: the gateway refused a turn over it, the agent said it ran out, or its
   * turns reached the budget. The one source of this fact: trial.json, the score and the pages read it. */
  stepLimitHit: boolean | null;
  exitCode: number | null;
  timedOut: boolean | null;
  /** Seconds the agent ran (the whole trial's when the agent's own time is unknown). */
  wallS: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  cachedTokens: number | null;
  costUsd: number | null;
}

/** What an agent's own logs say about its run (an adapter's readLogs); any fact may be missing. */
export type AgentLogFacts = Partial<Pick<RunFacts, 'steps' | 'stepLimitHit' | 'inputTokens' | 'outputTokens' | 'cachedTokens' | 'costUsd'>>;

/** What the model gateway counted for a trial's model traffic. */
export interface GatewayCounts {
  /** Model requests let through the budget check, whatever their outcome. */
  turns: number;
  /** A request was refused because a budget was used up. */
  budgetExceeded: boolean;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  costUsd: number;
}

/** How the agent process ended, known to the harness. */
export interface RunEnding {
  exitCode: number | null;
  timedOut: boolean;
  wallS: number | null;
  /** The trial's step budget: turns that reach it are the step limit, whatever the agent's own log says. */
  stepBudget?: number | null;
}

/**
 * The one place where the sources of run facts meet. The gateway's counts win over the agent's own logs
 * when the gateway saw model traffic (pass null otherwise); a step limit either side reports counts, and so
 * do turns that reached the step budget (an agent that stops itself at the limit may call it something else).
 */
export function mergeRunSources(gateway: GatewayCounts | null, agentLogs: AgentLogFacts, ending: RunEnding): RunFacts {
  const counted =
    gateway && gateway.turns > 0
      ? {
          steps: gateway.turns,
          stepLimitHit: gateway.budgetExceeded || (agentLogs.stepLimitHit ?? null),
          inputTokens: gateway.inputTokens,
          outputTokens: gateway.outputTokens,
          cachedTokens: gateway.cachedTokens,
          costUsd: gateway.costUsd,
        }
      : {
          steps: agentLogs.steps ?? null,
          stepLimitHit: agentLogs.stepLimitHit ?? null,
          inputTokens: agentLogs.inputTokens ?? null,
          outputTokens: agentLogs.outputTokens ?? null,
          cachedTokens: agentLogs.cachedTokens ?? null,
          costUsd: agentLogs.costUsd ?? null,
        };
  const budget = ending.stepBudget ?? null;
  const reachedBudget = budget !== null && counted.steps !== null && counted.steps >= budget;
  const stepLimitHit = counted.stepLimitHit === true || reachedBudget ? true : counted.stepLimitHit ?? (budget !== null && counted.steps !== null ? false : null);
  return { ...counted, stepLimitHit, exitCode: ending.exitCode, timedOut: ending.timedOut, wallS: ending.wallS };
}

const nullableNumber = z.number().nullable().default(null);

/** trial.json's `run`: the run facts that `status` and `timings` do not already hold, in this key order. */
export const RecordedRunSchema = z
  .looseObject({
    steps: nullableNumber,
    step_limit_hit: z.boolean().nullable().default(null),
    exit_code: nullableNumber,
    input_tokens: nullableNumber,
    output_tokens: nullableNumber,
    cached_tokens: nullableNumber,
    cost_usd: nullableNumber,
  })
  .default({ steps: null, step_limit_hit: null, exit_code: null, input_tokens: null, output_tokens: null, cached_tokens: null, cost_usd: null });
export type RecordedRun = z.infer<typeof RecordedRunSchema>;

/** The run facts as trial.json's `run` stores them. */
export function recordedRunOf(facts: RunFacts): RecordedRun {
  return {
    steps: facts.steps,
    step_limit_hit: facts.stepLimitHit,
    exit_code: facts.exitCode,
    input_tokens: facts.inputTokens,
    output_tokens: facts.outputTokens,
    cached_tokens: facts.cachedTokens,
    cost_usd: facts.costUsd,
  };
}

/** The parts of a trial record (record.ts, which builds on this module) that hold run facts. */
export interface RecordedRunParts {
  status: string;
  timings: { total_s: number; agent_s: number | null };
  run: RecordedRun;
}

/** The run facts read back from a trial record. */
export function runFactsOfRecord(record: RecordedRunParts): RunFacts {
  return {
    steps: record.run.steps,
    stepLimitHit: record.run.step_limit_hit,
    exitCode: record.run.exit_code,
    timedOut: record.status === 'timed_out',
    wallS: record.timings.agent_s ?? record.timings.total_s,
    inputTokens: record.run.input_tokens,
    outputTokens: record.run.output_tokens,
    cachedTokens: record.run.cached_tokens,
    costUsd: record.run.cost_usd,
  };
}
