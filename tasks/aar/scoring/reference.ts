import { pyMatchesSingleDigit, pyRepr, pyRound, pyStrip, pyUniversalNewlines } from '../../../pycompat/index.js';
import { ANSWER_LIMIT_BYTES } from '../../../trial/copy-limits.js';
import type { LegView } from './leg-view.js';
import { valuePatterns, type CallTally } from './tally.js';

/**
 * The fields of the reward.json written by the reference verifier (the AAR Harbor adapter's
 * tests/verify.py), in its key order. Each is computed the way that program computes it.
 */
export interface ReferenceFields {
  reward: number;
  status: 'correct' | 'incorrect' | 'unknown';
  status_reason: string;
  answered: number;
  agent_answer: string | null;
  expected_answer: string;
  stops_total: number;
  page_stops: number;
  tool_stops: number;
  reason_stops: number;
  ground_truth_steps: number;
  total_tool_calls: number;
  valid_tool_calls: number;
  right_tool_calls: number;
  golden_chain_length: number;
  pages_visited: number | null;
  tools_used: number | null;
  intermediate_correct: number;
  intermediate_total: number;
  intermediate_rate: number | null;
}

export const REFERENCE_FIELDS: readonly (keyof ReferenceFields)[] = [
  'reward', 'status', 'status_reason', 'answered', 'agent_answer', 'expected_answer', 'stops_total', 'page_stops',
  'tool_stops', 'reason_stops', 'ground_truth_steps', 'total_tool_calls', 'valid_tool_calls', 'right_tool_calls',
  'golden_chain_length', 'pages_visited', 'tools_used', 'intermediate_correct', 'intermediate_total', 'intermediate_rate',
];

/** Fields that Python writes as floats (1.0, not 1). */
export const REFERENCE_FLOAT_FIELDS = ['reward', 'answered', 'pages_visited', 'tools_used', 'intermediate_rate'] as const;

/** The reference's answer: `read_text().strip()` (universal newlines), or null when there is no answer file. */
export function referenceAnswer(answerText: string | null): string | null {
  return answerText === null ? null : pyStrip(pyUniversalNewlines(answerText));
}

/**
 * The reference's status rules: missing, empty, not a single digit, or a verdict. An answer file that was cut
 * (more than the whitespace around it left out: copy-limits.ts) is never judged on the part kept: past the
 * first 4,096 bytes of an answer something other than whitespace followed, so the whole of it is no digit.
 */
export function judgeAnswer(answer: string | null, expected: string, cut?: AnswerCut): Pick<ReferenceFields, 'reward' | 'status' | 'status_reason' | 'answered'> {
  if (answer === null) return { reward: 0, status: 'unknown', status_reason: 'agent did not write /app/answer.txt', answered: 0 };
  if (cut) {
    return { reward: 0, status: 'unknown', status_reason: `answer.txt was cut at ${cut.kept} of ${cut.size} bytes (the answer limit is ${ANSWER_LIMIT_BYTES} bytes): not a single digit`, answered: 1 };
  }
  if (answer === '') return { reward: 0, status: 'unknown', status_reason: 'answer.txt is empty', answered: 0 };
  if (!pyMatchesSingleDigit(answer)) {
    return { reward: 0, status: 'unknown', status_reason: `answer is not a single digit: ${pyRepr(answer)}`, answered: 1 };
  }
  const correct = answer === expected;
  return { reward: correct ? 1 : 0, status: correct ? 'correct' : 'incorrect', status_reason: '', answered: 1 };
}

/** `str(value).strip()` found in the joined previews, directly or as 123 / 123.0 / 123.00. */
export function valueFoundInResults(expected: string, allResults: string): boolean {
  return valuePatterns(expected).some((p) => allResults.includes(p));
}

const ratio = (n: number, d: number): number | null => (d > 0 ? pyRound(n / d, 3) : null);

/** How much of a cut answer file was kept (trial.json's cut_files entry of answer.txt, when it lost bytes). */
export interface AnswerCut {
  size: number;
  kept: number;
}

/** The reference's fields of a trial from its answer and its tool log folded into a tally. */
export function computeReferenceFields(view: LegView, answerText: string | null, tally: CallTally, answerCut?: AnswerCut): ReferenceFields {
  const agentAnswer = referenceAnswer(answerText);
  return {
    ...judgeAnswer(agentAnswer, view.expectedAnswer, answerCut),
    agent_answer: agentAnswer,
    expected_answer: view.expectedAnswer,
    stops_total: view.stops,
    page_stops: view.pageStops,
    tool_stops: view.toolStops,
    reason_stops: view.reasonStops,
    ground_truth_steps: view.stops,
    total_tool_calls: tally.calls,
    valid_tool_calls: tally.valid,
    right_tool_calls: tally.rightCalls,
    golden_chain_length: view.goldenSteps.length,
    pages_visited: ratio(tally.referencePagesFetched.size, view.referencePages.size),
    tools_used: ratio(tally.expectedToolsCalled.size, view.expectedTools.size),
    intermediate_correct: tally.valuesFound,
    intermediate_total: view.expectedValues.length,
    intermediate_rate: ratio(tally.valuesFound, view.expectedValues.length),
  };
}
