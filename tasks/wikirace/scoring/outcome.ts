import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TRIAL_FILES } from '../../../trial/folder.js';
import type { StoredTrialFiles, TrialOutcomeText } from '../../family.js';
import { endText, type GameScore } from './score.js';

/** The source and target pages of a stored game, from the task file the trial kept; null when it cannot be read. */
function pagesOf(dir: string): { source: string; target: string } | null {
  try {
    const task = JSON.parse(readFileSync(path.join(dir, TRIAL_FILES.leg), 'utf8')) as { source?: unknown; target?: unknown };
    return typeof task.target === 'string' && typeof task.source === 'string' ? { source: task.source, target: task.target } : null;
  } catch {
    return null;
  }
}

/** A WikiRace game in words: the target and the page it ended on, the moves against the shortest path, loops. */
export function wikiraceOutcome(s: GameScore, trial: StoredTrialFiles): TrialOutcomeText {
  const pages = pagesOf(trial.dir);
  const target = pages?.target ?? null;
  const lines = [
    s.success
      ? `Reached ${target ?? 'the target'} in ${s.steps} moves (shortest path ${s.optimal_length}${s.suboptimal_steps ? `, ${s.suboptimal_steps} over it` : ''}).`
      : `Did not reach ${target ?? 'the target'}: ${endText(s)} after ${s.steps} of ${s.move_limit} moves, on ${s.final_page} (shortest path ${s.optimal_length}).`,
    s.looped ? `Looped: a page was visited ${s.max_visits} times.` : 'No page visited twice.',
    `${s.model_calls ?? 'unknown'} of ${s.model_call_budget ?? 'unknown'} model calls${s.timed_out ? '; timed out' : ''}.`,
  ];
  if (s.problem) lines.push(`Problem: ${s.problem}.`);
  const question = pages ? `From ${pages.source} to ${pages.target} by following links (at most ${s.move_limit} moves; the shortest path has ${s.optimal_length}).` : '';
  return { question, target: target ?? '', answer: s.final_page, explanation: lines.join('\n') };
}
