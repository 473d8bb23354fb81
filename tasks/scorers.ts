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

const loaded = new Map<string, Promise<TrialScorer>>();

/** The scorer of a trial record's family (AAR for records without one); an unknown name is the registry's error. */
export function scorerOfRecord(record: { family?: string }): Promise<TrialScorer> {
  const name = record.family ?? DEFAULT_FAMILY;
  let scorer = loaded.get(name);
  if (!scorer) {
    const load = Object.prototype.hasOwnProperty.call(SCORERS, name) ? SCORERS[name] : undefined;
    scorer = load ? load() : import('./registry.js').then(({ taskFamily }) => taskFamily(name));
    loaded.set(name, scorer);
  }
  return scorer;
}

/** Scores a stored trial with its family's scorer (infrastructure errors are never scored: callers leave them out). */
export function scoreStoredTrial(scorer: TrialScorer, dir: string, record: TrialRecord): object {
  return scorer.score({ dir, record, run: runFactsOfRecord(record) });
}
