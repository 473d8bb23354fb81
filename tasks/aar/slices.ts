import type { SliceKeys } from '../family.js';
import { sliceOfTrial } from '../slices.js';
import type { TrialRecord } from '../../trial/record.js';

/** AAR slices its reports by a leg's variant, then its level (trial.json's leg.variant, leg.level). */
export const AAR_SLICE_KEYS: SliceKeys = ['variant', 'level'];

/** A stored AAR trial's variant and level. */
export function aarSliceOf(trial: { dir: string; record: TrialRecord }): { variant: string; level: string } {
  const [variant, level] = sliceOfTrial(AAR_SLICE_KEYS, trial);
  return { variant, level };
}
