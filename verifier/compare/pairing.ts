import type { TrialResult } from '../results.js';
import type { Configuration } from './select.js';

/** A trial's place in the pairing: the same leg and attempt in every configuration. */
const pairKey = (t: TrialResult): string => `${t.record.leg.id}#${t.record.attempt}`;

export interface PairedLeg {
  key: string;
  variant: string;
  level: string;
  /** One scored trial per configuration, in configuration order. */
  trials: TrialResult[];
}

export interface Pairing {
  legs: PairedLeg[];
  /** Leg-attempts some configuration has no trial for. */
  notInEvery: number;
  /** Leg-attempts left out because a configuration's trial was an infrastructure error. */
  excludedForInfra: number;
  /** Per configuration label: its infrastructure errors on legs the others have. */
  infraErrors: Record<string, number>;
}

/** Pairs configurations on the legs every one of them finished; infrastructure errors leave a leg out and are counted. */
export function pairTrials(configs: readonly Configuration[]): Pairing {
  const maps = configs.map((c) => new Map(c.trials.map((t) => [pairKey(t), t])));
  const all = new Set(maps.flatMap((m) => [...m.keys()]));
  const pairing: Pairing = { legs: [], notInEvery: 0, excludedForInfra: 0, infraErrors: Object.fromEntries(configs.map((c) => [c.label, 0])) };
  for (const key of [...all].sort()) {
    const trials = maps.map((m) => m.get(key));
    if (trials.some((t) => t === undefined)) {
      pairing.notInEvery++;
      continue;
    }
    const present = trials as TrialResult[];
    const infra = present.map((t, i) => (t.score === null ? configs[i].label : null)).filter((l): l is string => l !== null);
    if (infra.length) {
      pairing.excludedForInfra++;
      for (const label of infra) pairing.infraErrors[label]++;
      continue;
    }
    pairing.legs.push({ key, variant: present[0].record.leg.variant, level: present[0].record.leg.level, trials: present });
  }
  return pairing;
}

/** The slices compare reports: all legs, each variant, each level, each variant x level (`*` = all). */
export function slicesOf(legs: readonly PairedLeg[], levelOrder: readonly string[]): { variant: string; level: string; legs: PairedLeg[] }[] {
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
