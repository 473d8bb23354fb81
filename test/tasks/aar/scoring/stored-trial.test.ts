import { readFileSync } from 'node:fs';
import path from 'node:path';
import { writeTrialFolder } from '../../../../trial/folder.js';
import { trialRecordJson, type TrialRecord } from '../../../../trial/record.js';
import type { TrialScore } from '../../../../tasks/aar/scoring/score.js';
import { scoreTrialDir } from '../../../../verifier/results.js';
import { EXAMPLES_DIR, tempDir } from '../../../helpers/data.js';
import { completedRecord } from '../../../helpers/records.js';

const LEG = readFileSync(path.join(EXAMPLES_DIR, 'examples-linear', 'easy', 'sample_001.json'), 'utf8');

function record(cutFiles?: TrialRecord['cut_files']): TrialRecord {
  const leg = { id: 'examples-linear/easy/sample_001', variant: 'examples-linear', level: 'easy', file: 'x' };
  return completedRecord(LEG, leg, cutFiles ? { cut_files: cutFiles } : {});
}

describe("AAR's scoring of a stored trial whose answer was cut (its passcode is 6)", () => {
  const tmp = tempDir('aar-stored-cut-');
  afterAll(() => tmp.cleanup());
  let n = 0;
  const score = (answer: string, cutFiles?: TrialRecord['cut_files']): TrialScore => {
    const dir = writeTrialFolder(tmp.dir, `t${++n}`, { 'trial.json': trialRecordJson(record(cutFiles)), 'leg.json': LEG, 'answer.txt': answer });
    return scoreTrialDir(dir) as TrialScore;
  };

  test('padding left out around the answer is no cut: 5,000 spaces then 6 is correct, as the reference scores it', () => {
    expect(score('6', [{ file: 'answer.txt', size: 5001, kept: 1, blank: 5000 }])).toMatchObject({ status: 'correct', fa: 1, agent_answer: '6' });
  });

  test('an answer that lost bytes is never judged on the part kept, and says it was cut', () => {
    const cut = score('6' + ' '.repeat(4095), [{ file: 'answer.txt', size: 4097, kept: 4096 }]);
    expect(cut).toMatchObject({ status: 'unknown', fa: 0, answered: 1, status_reason: 'answer.txt was cut at 4096 of 4097 bytes (the answer limit is 4096 bytes): not a single digit' });
    // A folder from before padding was left out: 4,096 spaces kept of 5,000 and a 6; cut, not "empty".
    expect(score(' '.repeat(4096), [{ file: 'answer.txt', size: 5001, kept: 4096 }]).status_reason).toBe('answer.txt was cut at 4096 of 5001 bytes (the answer limit is 4096 bytes): not a single digit');
    // Another file's cut changes nothing of the answer.
    expect(score('6', [{ file: 'agent/stdout.log', size: 10, kept: 5 }])).toMatchObject({ status: 'correct', fa: 1 });
  });
});
