import { DEFAULT_FAMILY, type TaskFamily } from './family.js';
import { FAMILY_NAMES, loadWholeFamilies, unknownFamilyMessage, wholeFamily } from './families.js';

export { DEFAULT_FAMILY, FAMILY_NAMES, unknownFamilyMessage };

// Families differ in their task, score and figure types; callers treat them through the interface only.
type AnyFamily = TaskFamily<any, any, any>;

// Every family of the registry (families.ts), loaded whole once: jobs, reports and the config check use them
// synchronously. A plugin's family registered later is loaded whole when it registers.
await loadWholeFamilies();

export function findFamily(name: string): AnyFamily | undefined {
  return wholeFamily(name);
}

/** The family of this name; an unknown name is an error naming the known ones. */
export function taskFamily(name: string = DEFAULT_FAMILY): AnyFamily {
  const family = wholeFamily(name);
  if (!family) throw new Error(unknownFamilyMessage(name));
  return family;
}

/** The family that scores a trial: its record's `family`, or AAR for records without one. */
export function familyOfRecord(record: { family?: string }): AnyFamily {
  return taskFamily(record.family ?? DEFAULT_FAMILY);
}
