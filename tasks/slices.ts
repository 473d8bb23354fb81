import path from 'node:path';
import { TRIAL_FILES } from '../trial/folder.js';
import type { TrialRecord } from '../trial/record.js';
import type { SliceKeys } from './family.js';

/**
 * A stored trial's slice values (coarse, fine) under its family's keys (TaskFamily.sliceKeys); a record
 * without them is an error naming its trial.json and the field.
 */
export function sliceOfTrial(keys: SliceKeys, trial: { dir: string; record: TrialRecord }): [coarse: string, fine: string] {
  const leg: Readonly<Record<string, unknown>> = trial.record.leg;
  return [keys[0], keys[1]].map((key) => {
    const value = leg[key];
    if (typeof value === 'string') return value;
    throw new Error(`${path.join(trial.dir, TRIAL_FILES.record)}: leg.${key}: expected a string (a slice key of the family), got ${value === undefined ? 'nothing' : JSON.stringify(value)}`);
  }) as [string, string];
}
