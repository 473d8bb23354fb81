import type { RunFacts } from '../../../trial/run-facts.js';
import { parseTrajectory } from '../game/trajectory.js';
import { moveLimitOf, WikiraceTaskSchema } from '../schema.js';

/** One game's score (paper, section 4 and appendix D), recomputed from the stored task and trajectory alone. */
export interface GameScore {
  split: string;
  /** 1 when the last move reached the target within the move limit. */
  success: 0 | 1;
  /** Moves made. */
  steps: number;
  /** Moves the game allowed (the task's max_moves, else 30). */
  move_limit: number;
  /** Model calls the trial made (the gateway's count), and the most it was allowed; null when unknown or
   * when the agent used no model (the oracle's and random's own step counts are tool calls, not model calls). */
  model_calls: number | null;
  model_call_budget: number | null;
  /**
   * How the game ended: `target` reached; `move_limit` all moves used; `model_calls` the model-call budget
   * ran out before the move limit; `timeout` the trial's time ran out; `stopped` the agent stopped (or
   * failed) with moves left.
   */
  end: GameEnd;
  optimal_length: number;
  /** Moves beyond the optimal length, for a successful game; null otherwise. */
  suboptimal_steps: number | null;
  /** Some page (the source counts) was visited twice or more. */
  looped: boolean;
  /** The most visits of one page. */
  max_visits: number;
  final_page: string;
  /** Prompt + completion tokens, completion (generated) tokens and cost of the whole run; null when unknown. */
  tokens: number | null;
  output_tokens: number | null;
  cost_usd: number | null;
  /**
   * The same per step, a step being a model call (the paper's protocol makes one call per step, and a call
   * asked again for a reply naming no link is a step of its own, not part of a move's); null when unknown or
   * no call was made. The paper's text counts tokens generated; its Table 1 costs fit prompt + completion
   * (docs/wikirace.md): both are kept.
   */
  tokens_per_step: number | null;
  output_tokens_per_step: number | null;
  cost_per_step: number | null;
  timed_out: boolean;
  /** What makes the trajectory unusable (then success is 0), or null. */
  problem: string | null;
}

export type GameEnd = 'target' | 'move_limit' | 'model_calls' | 'timeout' | 'stopped';

/** The end of a failed game as a verdict says it. */
export function endText(s: Pick<GameScore, 'end' | 'model_calls' | 'model_call_budget'>): string {
  if (s.end === 'model_calls') return `the model-call budget ran out (${s.model_calls ?? '?'} of ${s.model_call_budget ?? '?'} calls)`;
  return { target: 'target reached', move_limit: 'all moves used', timeout: 'timed out', stopped: 'the agent stopped' }[s.end];
}

const perStep = (total: number | null, steps: number | null): number | null => (total === null || !steps ? null : total / steps);

/**
 * Scores a game from the task file's text and trajectory.jsonl's text (null when absent: no move made),
 * the run facts, the trial's model-call budget (trial.json's step_budget) and whether the agent used a model
 * (agentUsesModel: false makes the run's steps no model calls). The moves must chain from the source; a
 * break is reported as a problem and scores as a failure.
 */
export function scoreGame(taskText: string, trajectoryText: string | null, run: Partial<RunFacts> = {}, modelCallBudget: number | null = null, usesModel: boolean | null = null): GameScore {
  const task = WikiraceTaskSchema.parse(JSON.parse(taskText));
  let problem: string | null = null;
  let moves: ReturnType<typeof parseTrajectory> = [];
  try {
    moves = parseTrajectory(trajectoryText ?? '');
  } catch (error) {
    problem = (error as Error).message;
  }
  let at = task.source;
  for (const [i, move] of moves.entries()) {
    if (problem) break;
    if (move.step !== i + 1) problem = `trajectory.jsonl: line ${i + 1}: step ${move.step}, expected ${i + 1}`;
    else if (move.from !== at) problem = `trajectory.jsonl: line ${i + 1}: moves from '${move.from}' but the game was at '${at}'`;
    else if (at === task.target) problem = `trajectory.jsonl: line ${i + 1}: a move after the target was reached`;
    at = move.to;
  }
  const visits = new Map<string, number>([[task.source, 1]]);
  for (const move of moves) visits.set(move.to, (visits.get(move.to) ?? 0) + 1);
  const maxVisits = Math.max(...visits.values());
  const steps = moves.length;
  const moveLimit = moveLimitOf(task);
  const success = !problem && at === task.target && steps <= moveLimit ? 1 : 0;
  const calls = usesModel === false ? null : (run.steps ?? null);
  const callsOut = run.stepLimitHit === true || (calls !== null && modelCallBudget !== null && calls >= modelCallBudget);
  const end: GameEnd = success ? 'target' : steps >= moveLimit ? 'move_limit' : run.timedOut ? 'timeout' : callsOut ? 'model_calls' : 'stopped';
  const tokens = run.inputTokens == null || run.outputTokens == null ? null : run.inputTokens + run.outputTokens;
  const output = run.outputTokens ?? null;
  const cost = run.costUsd ?? null;
  return {
    split: task.split,
    success,
    steps,
    move_limit: moveLimit,
    model_calls: calls,
    model_call_budget: modelCallBudget,
    end,
    optimal_length: task.optimal_length,
    suboptimal_steps: success ? steps - task.optimal_length : null,
    looped: maxVisits > 1,
    max_visits: maxVisits,
    final_page: at,
    tokens,
    output_tokens: output,
    cost_usd: cost,
    tokens_per_step: perStep(tokens, calls),
    output_tokens_per_step: perStep(output, calls),
    cost_per_step: perStep(cost, calls),
    timed_out: run.timedOut ?? false,
    problem,
  };
}

export const gameScoreJson = (score: GameScore): string => JSON.stringify(score, null, 2) + '\n';
