import { aarFamily } from './aar/family.js';
import { DEFAULT_FAMILY, type TaskFamily } from './family.js';
import { wikiraceFamily } from './wikirace/family.js';

export { DEFAULT_FAMILY };

// Families differ in their task, score and figure types; callers treat them through the interface only.
type AnyFamily = TaskFamily<any, any, any>;

const FAMILIES: ReadonlyMap<string, AnyFamily> = new Map<string, AnyFamily>([
  [aarFamily.name, aarFamily],
  [wikiraceFamily.name, wikiraceFamily],
]);

export const FAMILY_NAMES: readonly string[] = [...FAMILIES.keys()];

export function findFamily(name: string): AnyFamily | undefined {
  return FAMILIES.get(name);
}

export function unknownFamilyMessage(name: string): string {
  return `unknown task family '${name}'; known: ${FAMILY_NAMES.join(', ')}`;
}

/** The family of this name; an unknown name is an error naming the known ones. */
export function taskFamily(name: string = DEFAULT_FAMILY): AnyFamily {
  const family = FAMILIES.get(name);
  if (!family) throw new Error(unknownFamilyMessage(name));
  return family;
}

/** The family that scores a trial: its record's `family`, or AAR for records without one. */
export function familyOfRecord(record: { family?: string }): AnyFamily {
  return taskFamily(record.family ?? DEFAULT_FAMILY);
}
