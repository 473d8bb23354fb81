import type { RunFacts } from '../../../trial/run-facts.js';
import { parseTrajectory } from '../game/trajectory.js';
import { WikiraceTaskSchema } from '../schema.js';

/** One game's score (paper, section 4 and appendix D), recomputed from the stored task and trajectory alone. */
export interface GameScore {
  split: string;
  /** 1 when the last move reached the target within the step budget. */
  success: 0 | 1;
  /** Moves made. */
  steps: number;
  optimal_length: number;
  /** Moves beyond the optimal length, for a successful game; null otherwise. */
  suboptimal_steps: number | null;
  /** Some page (the source counts) was visited twice or more. */
  looped: boolean;
  /** The most visits of one page. */
  max_visits: number;
  final_page: string;
  /** Prompt + completion tokens and cost of the whole run, and per move; null when unknown or no move was made. */
  tokens: number | null;
  cost_usd: number | null;
  tokens_per_step: number | null;
  cost_per_step: number | null;
  timed_out: boolean;
  /** What makes the trajectory unusable (then success is 0), or null. */
  problem: string | null;
}

const perStep = (total: number | null, steps: number): number | null => (total === null || steps === 0 ? null : total / steps);

/**
 * Scores a game from the task file's text and trajectory.jsonl's text (null when absent: no move made).
 * The moves must chain from the source; a break is reported as a problem and scores as a failure.
 */
export function scoreGame(taskText: string, trajectoryText: string | null, stepBudget: number, run: Partial<RunFacts> = {}): GameScore {
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
  const success = !problem && at === task.target && steps <= stepBudget ? 1 : 0;
  const tokens = run.inputTokens == null || run.outputTokens == null ? null : run.inputTokens + run.outputTokens;
  const cost = run.costUsd ?? null;
  return {
    split: task.split,
    success,
    steps,
    optimal_length: task.optimal_length,
    suboptimal_steps: success ? steps - task.optimal_length : null,
    looped: maxVisits > 1,
    max_visits: maxVisits,
    final_page: at,
    tokens,
    cost_usd: cost,
    tokens_per_step: perStep(tokens, steps),
    cost_per_step: perStep(cost, steps),
    timed_out: run.timedOut ?? false,
    problem,
  };
}

export const gameScoreJson = (score: GameScore): string => JSON.stringify(score, null, 2) + '\n';
