import { fromNativeJson, pyJsonDumps, pyJsonString, type PyValue } from '../../../pycompat/index.js';
import { parseLegForScoring, scoredLegOfTree } from './leg-tree.js';
import { buildLegView, legViewOfText, type LegView } from './leg-view.js';
import { computePaperMetrics, type PaperMetrics } from './paper.js';
import type { RunFacts } from '../../../trial/run-facts.js';
import { isPyDict } from '../../../pycompat/dict.js';
import { computeReferenceFields, REFERENCE_FIELDS, REFERENCE_FLOAT_FIELDS, type AnswerCut, type ReferenceFields } from './reference.js';
import { tallyToolLog } from './tally.js';
import type { ToolLogSource } from './tool-log.js';

/** Everything METRICS.md defines for one trial: the reference-compatible fields first, then the paper's. */
export interface TrialScore extends ReferenceFields, PaperMetrics {
  /** Non-blank tool-log lines that were not a JSON object (skipped, as the reference skips them). */
  log_lines_skipped: number;
}

/**
 * A leg for scoring: its JSON text (read with Python's types, so 20.0 stays a float), or an already parsed
 * leg object (a plain JSON value, read with fromNativeJson: integral floats then read as ints).
 */
export type ScorableLeg = string | object;

export function legView(leg: ScorableLeg): LegView {
  if (typeof leg === 'string') return legViewOfText(leg, parseLegForScoring);
  const tree = fromNativeJson(leg);
  if (!isPyDict(tree)) throw new Error('a leg must be a JSON object');
  return buildLegView(scoredLegOfTree(tree));
}

/**
 * Scores one trial from its three inputs: the leg, the answer file's text (null when the agent wrote
 * none) and the tool log (its text, or its file, read line by line; null when there is none). `run` adds
 * what only the run knows.
 */
export function scoreTrial(leg: ScorableLeg, answerText: string | null, toolLog: ToolLogSource, run: Partial<RunFacts> = {}): TrialScore {
  return scoreOnView(legView(leg), answerText, toolLog, run);
}

/** What a stored trial's record adds to its files. */
export interface RecordedTrialFacts {
  /** The answer file was cut (cut_files): it is not judged on the part kept. */
  answerCut?: AnswerCut;
  /** The step budget the trial ran under (step_budget); absent: the leg's B. */
  stepBudget?: number;
}

/** scoreTrial on a leg's view already built (a stored trial builds it first, to name a bad leg.json). */
export function scoreOnView(view: LegView, answerText: string | null, toolLog: ToolLogSource, run: Partial<RunFacts> = {}, recorded: RecordedTrialFacts = {}): TrialScore {
  const tally = tallyToolLog(view, toolLog);
  const reference = computeReferenceFields(view, answerText, tally, recorded.answerCut);
  return { ...reference, ...computePaperMetrics(view, tally, reference, run, recorded.stepBudget), log_lines_skipped: tally.skippedLines };
}

const FLOAT_FIELDS = new Set<string>([...REFERENCE_FLOAT_FIELDS, 'pvr', 'rcr', 'wall_s', 'cost_usd']);

/**
 * The score as JSON text, as `json.dump(score, f, indent=2)` writes it: every field is a scalar, ints of the
 * integer fields as ints, floats the way Python writes them (1.0, 0.667).
 */
export function scoreToJson(score: TrialScore | ReferenceFields): string {
  let out = '{';
  for (const [key, value] of Object.entries(score)) {
    if (typeof value === 'object' && value !== null) throw new TypeError(`score field ${key} is not a scalar`);
    const int = typeof value === 'number' && !FLOAT_FIELDS.has(key) && Number.isInteger(value);
    out += `${out.length > 1 ? ',' : ''}\n  ${pyJsonString(key)}: ${pyJsonDumps(int ? BigInt(value) : (value as PyValue))}`;
  }
  return out + '\n}\n';
}

/** Only the reference verifier's fields, in its order: a drop-in reward.json. */
export function referenceOnly(score: TrialScore): ReferenceFields {
  return Object.fromEntries(REFERENCE_FIELDS.map((f) => [f, score[f]])) as unknown as ReferenceFields;
}
