import { aarDeclaration } from './aar/declaration.js';
import { DEFAULT_FAMILY, type FamilyDeclaration, type TrialScorer } from './family.js';
import { wikiraceDeclaration } from './wikirace/declaration.js';
import type { TrialRecord } from '../trial/record.js';
import { runFactsOfRecord } from '../trial/run-facts.js';

/**
 * The task families, one line each: a family is its folder under tasks/ with a declaration.ts
 * (family.ts's FamilyDeclaration). Importing this loads the declarations only; registry.ts loads the
 * families whole, and `aar verify` loads only the scorers of the families its trials name.
 */
export const FAMILY_DECLARATIONS: readonly FamilyDeclaration[] = [
  aarDeclaration,
  wikiraceDeclaration,
];

export const FAMILY_NAMES: readonly string[] = FAMILY_DECLARATIONS.map((d) => d.name);

export function unknownFamilyMessage(name: string): string {
  return `unknown task family '${name}'; known: ${FAMILY_NAMES.join(', ')}`;
}

/** The declaration of this name; an unknown name is an error naming the known ones. */
export function familyDeclaration(name: string = DEFAULT_FAMILY): FamilyDeclaration {
  const found = FAMILY_DECLARATIONS.find((d) => d.name === name);
  if (!found) throw new Error(unknownFamilyMessage(name));
  return found;
}

const loading = new Map<string, Promise<TrialScorer>>();
const loaded = new Map<string, TrialScorer>();

const familyOf = (record: { family?: string }): string => record.family ?? DEFAULT_FAMILY;

/** The scorer of a trial record's family (AAR for records without one), loaded on first use; an unknown name is the registry's error. */
export function scorerOfRecord(record: { family?: string }): Promise<TrialScorer> {
  const name = familyOf(record);
  let scorer = loading.get(name);
  if (!scorer) {
    scorer = (async () => familyDeclaration(name).scorer())();
    scorer.then((s) => loaded.set(name, s)).catch(() => undefined);
    loading.set(name, scorer);
  }
  return scorer;
}

/** The scorer of a record's family when scorerOfRecord has already loaded it: no await for all trials but the first. */
export function loadedScorerOf(record: { family?: string }): TrialScorer | undefined {
  return loaded.get(familyOf(record));
}

/** Scores a stored trial with its family's scorer (infrastructure errors are never scored: callers leave them out). */
export function scoreStoredTrial(scorer: TrialScorer, dir: string, record: TrialRecord): object {
  return scorer.score({ dir, record, run: runFactsOfRecord(record) });
}
