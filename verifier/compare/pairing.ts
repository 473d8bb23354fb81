import type { SliceKeys } from '../../tasks/family.js';
import { sliceOfTrial } from '../../tasks/slices.js';
import type { TrialResult } from '../results.js';
import type { Configuration } from './select.js';

export { REDUCERS, reduceLeg, type Reducer } from '../../common/reducers.js';

/** One configuration's trials of one leg: the scored attempts, and how many were infrastructure errors. */
export interface LegTrials {
  leg: string;
  /** Its coarse and fine slice values (the family's sliceKeys). */
  variant: string;
  level: string;
  scored: TrialResult[];
  infra: number;
}

/** A configuration's trials grouped by leg, with what infrastructure errors cost it. */
export interface ConfigLegs {
  label: string;
  legs: Map<string, LegTrials>;
  /** Legs with at least one trial. */
  legsRun: number;
  /** Legs whose every attempt was an infrastructure error (no value for the leg). */
  legsLostToInfra: number;
  /** Attempts that were infrastructure errors on legs that still have a value. */
  attemptsLostToInfra: number;
  /** The smallest and largest number of scored attempts on a leg. */
  attempts: [number, number];
}

export function legsOfConfig(config: Configuration, keys: SliceKeys): ConfigLegs {
  const legs = new Map<string, LegTrials>();
  for (const t of config.trials) {
    const id = t.record.leg.id;
    let entry = legs.get(id);
    if (!entry) {
      const [variant, level] = sliceOfTrial(keys, t);
      legs.set(id, (entry = { leg: id, variant, level, scored: [], infra: 0 }));
    }
    if (t.score === null) entry.infra++;
    else entry.scored.push(t);
  }
  const valued = [...legs.values()].filter((l) => l.scored.length > 0);
  const counts = valued.map((l) => l.scored.length);
  return {
    label: config.label,
    legs,
    legsRun: legs.size,
    legsLostToInfra: legs.size - valued.length,
    attemptsLostToInfra: valued.reduce((s, l) => s + l.infra, 0),
    attempts: counts.length ? [Math.min(...counts), Math.max(...counts)] : [0, 0],
  };
}

/** One leg of a pair: both configurations' scored attempts. */
export interface PairedLeg {
  key: string;
  variant: string;
  level: string;
  /** The scored attempts of each configuration of the pair, in pair order. */
  trials: [TrialResult[], TrialResult[]];
}

/** Two configurations on the legs both have a value for (their own shared legs, whatever a third did). */
export interface Pair {
  a: string;
  b: string;
  legs: PairedLeg[];
  /** Legs one of the two has no trial for at all. */
  notInBoth: number;
  /** Legs run by both that one of them lost to infrastructure errors, per configuration label. */
  lostToInfra: Record<string, number>;
}

export function pairOf(a: ConfigLegs, b: ConfigLegs): Pair {
  const pair: Pair = { a: a.label, b: b.label, legs: [], notInBoth: 0, lostToInfra: { [a.label]: 0, [b.label]: 0 } };
  for (const id of [...new Set([...a.legs.keys(), ...b.legs.keys()])].sort()) {
    const [la, lb] = [a.legs.get(id), b.legs.get(id)];
    if (!la || !lb) {
      pair.notInBoth++;
      continue;
    }
    if (!la.scored.length) pair.lostToInfra[a.label]++;
    if (!lb.scored.length) pair.lostToInfra[b.label]++;
    if (la.scored.length && lb.scored.length) pair.legs.push({ key: id, variant: la.variant, level: la.level, trials: [la.scored, lb.scored] });
  }
  return pair;
}

/** The legs every configuration has a value for, with each configuration's scored attempts of them. */
export function legsSharedByAll(configs: readonly ConfigLegs[]): { legs: string[]; trials: TrialResult[][] } {
  const legs = [...(configs[0]?.legs.keys() ?? [])].filter((id) => configs.every((c) => (c.legs.get(id)?.scored.length ?? 0) > 0)).sort();
  return { legs, trials: configs.map((c) => legs.flatMap((id) => c.legs.get(id)!.scored)) };
}

/** The slices compare reports: all legs, each coarse group, each fine one, each coarse x fine (`*` = all; AAR: variant, level). */
export function slicesOf<L extends { variant: string; level: string }>(legs: readonly L[], levelOrder: readonly string[]): { variant: string; level: string; legs: L[] }[] {
  const rank = (l: string): number => (levelOrder.indexOf(l) < 0 ? 99 : levelOrder.indexOf(l));
  const variants = [...new Set(legs.map((l) => l.variant))].sort();
  const levels = [...new Set(legs.map((l) => l.level))].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
  const out = [{ variant: '*', level: '*', legs: [...legs] }];
  if (variants.length > 1) for (const v of variants) out.push({ variant: v, level: '*', legs: legs.filter((l) => l.variant === v) });
  if (levels.length > 1) for (const l of levels) out.push({ variant: '*', level: l, legs: legs.filter((x) => x.level === l) });
  if (variants.length > 1 && levels.length > 1) {
    for (const v of variants) for (const l of levels) out.push({ variant: v, level: l, legs: legs.filter((x) => x.variant === v && x.level === l) });
  }
  return out.filter((s) => s.legs.length > 0);
}
