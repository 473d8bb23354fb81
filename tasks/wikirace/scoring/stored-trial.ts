import path from 'node:path';
import { readTrialText, TRIAL_FILES } from '../../../trial/folder.js';
import { agentUsesModel } from '../../../trial/record.js';
import type { TrialScorer } from '../../family.js';
import { WIKIRACE_TRIAL_FILES } from '../trial-files.js';
import { gameScoreJson, scoreGame, type GameScore } from './score.js';

/** WikiRace's scoring of a stored trial: its task (leg.json) and trajectory.jsonl, the run facts and the model-call budget (step_budget). */
export const wikiraceScorer: TrialScorer<GameScore> = {
  score({ dir, record, run }) {
    const task = readTrialText(dir, TRIAL_FILES.leg);
    if (task === null) throw new Error(`${path.join(dir, TRIAL_FILES.leg)}: missing`);
    return scoreGame(task, readTrialText(dir, WIKIRACE_TRIAL_FILES.trajectory), run, record.step_budget ?? null, agentUsesModel(record));
  },
  scoreToJson: gameScoreJson,
};
