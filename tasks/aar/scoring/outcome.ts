import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TRIAL_FILES } from '../../../trial/folder.js';
import type { StoredTrialFiles, TrialOutcomeText } from '../../family.js';
import type { TrialScore } from './score.js';

/**
 * The leg the trial kept, as asked: its seed page and riddle in one paragraph (a viewer's one-line preview
 * runs separate blocks together); empty when the file cannot be read.
 */
function questionOf(dir: string): string {
  try {
    const leg = JSON.parse(readFileSync(path.join(dir, TRIAL_FILES.leg), 'utf8')) as { seed_url?: unknown; riddle?: unknown };
    return `Start at ${String(leg.seed_url ?? '?')} and solve the riddle: ${String(leg.riddle ?? '').replace(/\s+/g, ' ').trim()}`;
  } catch {
    return '';
  }
}

const pct = (v: number | null): string => (v === null ? 'not defined' : `${(100 * v).toFixed(0)}%`);

/** An AAR trial in words: the passcode expected and given, and the paper's figures with what they count. */
export function aarOutcome(s: TrialScore, trial: StoredTrialFiles): TrialOutcomeText {
  const answer = s.agent_answer ?? null;
  const lines = [
    `${s.status}${s.status_reason ? ` (${s.status_reason})` : ''}: answered ${answer === null ? 'nothing' : JSON.stringify(answer)}, expected ${s.expected_answer} (FA ${s.fa}).`,
    `PVR ${pct(s.pvr)} of ${s.page_stops} page stops visited; RCR ${pct(s.rcr)} of ${s.tool_stops} tool stops completed; ${s.intermediate_correct} of ${s.intermediate_total} intermediate values right.`,
    `${s.total_tool_calls} tool calls (${s.valid_tool_calls} valid); ${s.steps ?? 'unknown'} of ${s.step_budget} steps${s.step_limit_hit ? ', ended at the step limit' : ''}${s.timed_out ? ', timed out' : ''}.`,
  ];
  if (s.diagnosis) lines.push(`Diagnosis: ${s.diagnosis}${s.near_miss ? ' (a near miss)' : ''}.`);
  if (s.shortcut) lines.push('A shortcut: correct with fewer than 30% of the page stops visited.');
  return { question: questionOf(trial.dir), target: String(s.expected_answer), answer, explanation: lines.join('\n') };
}
