import { pyFloat, pyFormatFixed, pyIntOfFloat, pyMatchesSingleDigit, pyRepr, pyRound, pyStrip, pyUniversalNewlines } from '../../../python/index.js';
import { ANSWER_LIMIT_BYTES } from '../../../trial/copy-limits.js';
import { referenceArgsMatch } from './args-match.js';
import type { LegView } from './leg-view.js';
import { creditedCalls, type LoggedCall } from './tool-log.js';

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
  if (!expected) return false;
  if (allResults.includes(expected)) return true;
  const num = pyFloat(expected.split(',').join(''));
  if (num === null) return false;
  const asInt = pyIntOfFloat(num);
  if (asInt === null) return false;
  return allResults.includes(asInt) || allResults.includes(pyFormatFixed(num, 1)) || allResults.includes(pyFormatFixed(num, 2));
}

/** Greedy, in log order: each call takes the first unmatched golden step with its name and matching arguments. */
export function matchGoldenSteps(view: LegView, calls: readonly LoggedCall[]): number {
  const matched = new Array<boolean>(view.goldenSteps.length).fill(false);
  let count = 0;
  for (const call of calls) {
    for (let gi = 0; gi < view.goldenSteps.length; gi++) {
      const step = view.goldenSteps[gi];
      if (matched[gi] || step.toolName !== call.tool) continue;
      if (referenceArgsMatch(step, call.args)) {
        matched[gi] = true;
        count++;
        break;
      }
    }
  }
  return count;
}

const ratio = (n: number, d: number): number | null => (d > 0 ? pyRound(n / d, 3) : null);

/** How much of a cut answer file was kept (trial.json's cut_files entry of answer.txt, when it lost bytes). */
export interface AnswerCut {
  size: number;
  kept: number;
}

export function computeReferenceFields(view: LegView, answerText: string | null, calls: readonly LoggedCall[], answerCut?: AnswerCut): ReferenceFields {
  const agentAnswer = referenceAnswer(answerText);
  const credited = creditedCalls(calls);

  const fetched = new Set<string>();
  const calledTools = new Set<string>();
  for (const call of credited) {
    if (call.referenceUrl !== undefined) fetched.add(call.referenceUrl);
    if (typeof call.tool === 'string') calledTools.add(call.tool);
  }
  let visited = 0;
  for (const page of view.referencePages) if (fetched.has(page)) visited++;
  let used = 0;
  for (const tool of view.expectedTools) if (calledTools.has(tool)) used++;

  const allResults = calls.map((c) => c.preview).join(' ');
  let intermediateCorrect = 0;
  for (const value of view.expectedValues) if (valueFoundInResults(value, allResults)) intermediateCorrect++;

  return {
    ...judgeAnswer(agentAnswer, view.expectedAnswer, answerCut),
    agent_answer: agentAnswer,
    expected_answer: view.expectedAnswer,
    stops_total: view.stops,
    page_stops: view.pageStops,
    tool_stops: view.toolStops,
    reason_stops: view.reasonStops,
    ground_truth_steps: view.stops,
    total_tool_calls: calls.length,
    valid_tool_calls: calls.filter((c) => c.success).length,
    right_tool_calls: matchGoldenSteps(view, credited),
    golden_chain_length: view.goldenSteps.length,
    pages_visited: ratio(visited, view.referencePages.size),
    tools_used: ratio(used, view.expectedTools.size),
    intermediate_correct: intermediateCorrect,
    intermediate_total: view.expectedValues.length,
    intermediate_rate: ratio(intermediateCorrect, view.expectedValues.length),
  };
}
