import path from 'node:path';
import { cutLostBytes } from '../../../trial/copy-limits.js';
import { readTrialText, TRIAL_FILES } from '../../../trial/folder.js';
import type { TrialScorer } from '../../family.js';
import { jsonSyntaxProblem } from '../../problems.js';
import type { LegView } from './leg-view.js';
import { legView, scoreOnView, scoreToJson, type TrialScore } from './score.js';

/**
 * AAR's scoring of a stored trial: its leg.json, answer.txt and tool_log.jsonl (read line by line), the run
 * facts, whether the answer was cut, and the step budget it ran under (the record's, not the leg's B: they
 * differ when the job's budget.steps is not auto).
 */
export const aarScorer: TrialScorer<TrialScore> = {
  score({ dir, record, run }) {
    const leg = readTrialText(dir, TRIAL_FILES.leg);
    if (leg === null) throw new Error(`${path.join(dir, TRIAL_FILES.leg)}: missing`);
    let view: LegView;
    try {
      view = legView(leg);
    } catch (error) {
      const legFile = path.join(dir, TRIAL_FILES.leg);
      throw new Error(`${legFile}: ${error instanceof SyntaxError ? jsonSyntaxProblem(legFile, leg, error).message : (error as Error).message}`);
    }
    const answerCut = record.cut_files?.find((c) => c.file === TRIAL_FILES.answer && cutLostBytes(c));
    return scoreOnView(view, readTrialText(dir, TRIAL_FILES.answer), { file: path.join(dir, TRIAL_FILES.toolLog) }, run, { answerCut, stepBudget: record.step_budget });
  },
  scoreToJson,
};
