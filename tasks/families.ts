import { aarDeclaration } from './aar/declaration.js';
import { DEFAULT_FAMILY, type FamilyDeclaration, type TaskFamily, type TrialScorer } from './family.js';
import { wikiraceDeclaration } from './wikirace/declaration.js';
import { BUILT_IN, Registry } from '../common/registry.js';
import type { TrialRecord } from '../trial/record.js';
import { runFactsOfRecord } from '../trial/run-facts.js';

/**
 * The task families, one line each: a family is its folder under tasks/ with a declaration.ts
 * (family.ts's FamilyDeclaration), or a plugin's entry (harness/plugins/). Importing this loads the
 * declarations only; registry.ts loads the families whole, and `aar verify` loads only the scorers of the
 * families its trials name.
 */
export const FAMILIES = new Registry<FamilyDeclaration>('task family', (d) => d.name);
FAMILIES.add(aarDeclaration);
FAMILIES.add(wikiraceDeclaration);

/** The declarations, in registration order (live: a plugin's families join it). */
export const FAMILY_DECLARATIONS: readonly FamilyDeclaration[] = FAMILIES.entries;

/** Their names (live). */
export const FAMILY_NAMES: readonly string[] = FAMILIES.names;

export function unknownFamilyMessage(name: string): string {
  return FAMILIES.unknownMessage(name);
}

/** The declaration of this name; an unknown name is an error naming the known ones. */
export function familyDeclaration(name: string = DEFAULT_FAMILY): FamilyDeclaration {
  return FAMILIES.get(name);
}

/** Families loaded whole (registry.ts loads every declared one; a plugin's is loaded when it registers). */
const WHOLE = new Map<string, TaskFamily<any, any, any>>();

/** Loads the named families whole (all declared ones when none are named), one after the other: Jest's
 * module loader fails on two graphs sharing modules being linked at once. */
export async function loadWholeFamilies(names: readonly string[] = FAMILIES.names): Promise<void> {
  for (const name of names) if (!WHOLE.has(name)) WHOLE.set(name, await familyDeclaration(name).family());
}

/** A family loaded whole before (loadWholeFamilies), or undefined. */
export const wholeFamily = (name: string): TaskFamily<any, any, any> | undefined => WHOLE.get(name);

/** Registers a family (a plugin's, built from its TaskFamily) and loads it whole. */
export async function addFamily(declaration: FamilyDeclaration, from: string = BUILT_IN): Promise<void> {
  FAMILIES.add(declaration, from);
  await loadWholeFamilies([declaration.name]);
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
