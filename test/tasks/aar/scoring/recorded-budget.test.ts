import { readFileSync } from 'node:fs';
import path from 'node:path';
import { aarScorer } from '../../../../tasks/aar/scoring/stored-trial.js';
import { stepBudget } from '../../../../tasks/aar/schema.js';
import { writeTrialFolder } from '../../../../trial/folder.js';
import { runFactsOfRecord } from '../../../../trial/run-facts.js';
import { AAR_DATA_DIR, describeWithData, tempDir } from '../../../helpers/data.js';
import { completedRecord } from '../../../helpers/records.js';

/** A real leg of 22 stops: B = max(10, floor(1.5 * 22)) = 33. */
const LEG_FILE = path.join(AAR_DATA_DIR, 'aar-linear', 'extreme', 'sample_004.json');

describeWithData('a stored AAR trial is scored under the step budget its record holds', () => {
  const tmp = tempDir('aar-recorded-budget-');
  afterAll(() => tmp.cleanup());
  const legText = () => readFileSync(LEG_FILE, 'utf8');
  let n = 0;
  const scored = (budget: number, steps: number) => {
    const leg = legText();
    const record = completedRecord(leg, {}, { step_budget: budget, run: { steps, step_limit_hit: null, exit_code: 0 } });
    const dir = writeTrialFolder(tmp.dir, `t${++n}`, { 'leg.json': leg, 'tool_log.jsonl': '' });
    return aarScorer.score({ dir, record, run: runFactsOfRecord(record) });
  };

  test('budget.steps 12 on a leg whose auto B is 33: 12 steps without an answer hit the limit', () => {
    expect(stepBudget(JSON.parse(legText()))).toBe(33);
    expect(scored(12, 12)).toMatchObject({ step_budget: 12, step_limit_hit: true, diagnosis: 'step_limit' });
    expect(scored(12, 11)).toMatchObject({ step_budget: 12, step_limit_hit: false });
  });

  test('the recorded budget being the auto one scores as before', () => {
    expect(scored(33, 12)).toMatchObject({ step_budget: 33, step_limit_hit: false });
    expect(scored(33, 33)).toMatchObject({ step_budget: 33, step_limit_hit: true });
  });
});
