import { DEFAULT_FAMILY, type TrialScorer } from './family.js';
import type { TrialRecord } from '../trial/record.js';
import { runFactsOfRecord } from '../trial/run-facts.js';

/**
 * Each family's scorer, imported when a trial first asks for it: re-scoring a job (`aar verify`) loads the
 * scoring code of the families its trials name and nothing else of them. The registry (registry.ts) holds
 * the same families whole; a test checks that both list the same names and the same scorers.
 */
const SCORERS: Readonly<Record<string, () => Promise<TrialScorer>>> = {
  aar: async () => (await import('./aar/scoring/stored-trial.js')).aarScorer,
  wikirace: async () => (await import('./wikirace/scoring/stored-trial.js')).wikiraceScorer,
};

export const SCORER_FAMILIES: readonly string[] = Object.keys(SCORERS);

const loading = new Map<string, Promise<TrialScorer>>();
const loaded = new Map<string, TrialScorer>();

const familyOf = (record: { family?: string }): string => record.family ?? DEFAULT_FAMILY;

/** The scorer of a trial record's family (AAR for records without one); an unknown name is the registry's error. */
export function scorerOfRecord(record: { family?: string }): Promise<TrialScorer> {
  const name = familyOf(record);
  let scorer = loading.get(name);
  if (!scorer) {
    const load = Object.prototype.hasOwnProperty.call(SCORERS, name) ? SCORERS[name] : undefined;
    scorer = load ? load() : import('./registry.js').then(({ taskFamily }) => taskFamily(name));
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
