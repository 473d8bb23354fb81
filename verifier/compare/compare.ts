import type { CompareMetric } from '../../tasks/family.js';
import { taskFamily } from '../../tasks/registry.js';
import { boundedMean, minimumDetectableDifference, proportion } from '../../common/stats.js';
import { checkBudgets, UnequalBudgetsError } from './budgets.js';
import { compareTables } from './compare-tables.js';
import { costAccuracyFrontier, effortOf } from './effort.js';
import { holmAdjust } from './paired-stats.js';
import { comparePaired } from './paired-test.js';
import { legsOfConfig, legsSharedByAll, pairOf, reduceLeg, slicesOf, type ConfigLegs, type Pair, type PairedLeg } from './pairing.js';
import type { Configuration } from './select.js';

import { ALPHA, INFRA_RATE_WARNING, type CompareOptions, type CompareResult, type ConfigurationSummary, type PairedRow } from './result.js';

export { ALPHA, INFRA_RATE_WARNING, type CompareOptions, type CompareResult, type ConfigurationSummary, type PairedRow };
export type { PairSummary } from './result.js';

/** The figures compare pairs: the family's own, or its success rate alone. */
export function compareMetricsOf(familyName: string): readonly CompareMetric<object>[] {
  const family = taskFamily(familyName);
  return family.report.compareMetrics ?? [{ name: family.progress.label.toLowerCase(), binary: true, of: (s: object) => family.progress.success(s) }];
}

const attemptsText = (counts: number[]): string => (!counts.length ? '-' : Math.min(...counts) === Math.max(...counts) ? String(counts[0]) : `${Math.min(...counts)}-${Math.max(...counts)}`);

function pairedRow(metric: CompareMetric<object>, pair: Pair, slice: { variant: string; level: string; legs: PairedLeg[] }, role: PairedRow['role'], options: CompareOptions): PairedRow {
  const reducer = options.reducer ?? 'mean';
  const a: number[] = [];
  const b: number[] = [];
  const counts: number[] = [];
  for (const leg of slice.legs) {
    const va = reduceLeg(leg.trials[0].map((t) => metric.of(t.score!)), reducer, metric.binary);
    const vb = reduceLeg(leg.trials[1].map((t) => metric.of(t.score!)), reducer, metric.binary);
    if (va === null || vb === null) continue;
    a.push(va);
    b.push(vb);
    counts.push(leg.trials[0].length, leg.trials[1].length);
  }
  const r = comparePaired(a, b, { seed: options.seed ?? 0, resamples: options.resamples });
  let mde: number | null = null;
  if (role === 'primary' && r.n > 1) {
    const d = a.map((x, i) => b[i] - x);
    const sd = Math.sqrt(d.reduce((s, x) => s + (x - r.diff!) ** 2, 0) / (r.n - 1));
    // Every leg differing by the same amount leaves no spread to measure: no power figure rather than 0.
    mde = sd > 0 ? minimumDetectableDifference(r.n, 1, sd)!.attemptsIndependent : null;
  }
  return {
    a: pair.a, b: pair.b, metric: metric.name, variant: slice.variant, level: slice.level, role, n: r.n,
    reducer: metric.binary ? reducer : 'mean', attempts: attemptsText(counts),
    a_mean: r.meanA, b_mean: r.meanB, diff: r.diff, lo: r.lo, hi: r.hi, interval: r.interval, test: r.test, p_value: r.p, p_holm: null,
    discordant_a: r.aAbove, discordant_b: r.bAbove, small_n: r.smallN && r.n > 0 ? 'yes' : null, mde_80: mde,
  };
}

function summary(c: Configuration, legs: ConfigLegs): ConfigurationSummary {
  return {
    label: c.label, jobDir: c.jobDir, agent: c.agent, model: c.model, trials: c.trials.length,
    legs_run: legs.legsRun, legs_lost_to_infra: legs.legsLostToInfra, infra_rate: legs.legsRun ? legs.legsLostToInfra / legs.legsRun : null,
    attempts_lost_to_infra: legs.attemptsLostToInfra, attempts_per_leg: legs.attempts[0] === legs.attempts[1] ? String(legs.attempts[0]) : `${legs.attempts[0]}-${legs.attempts[1]}`,
  };
}

/** The success rate of a configuration on legs (one reduced value each) with its 95% interval: Wilson for 0/1 values. */
function successOf(values: number[]): { mean: number | null; lo: number | null; hi: number | null } {
  const zeroOne = values.every((v) => v === 0 || v === 1);
  return zeroOne ? proportion(values.filter((v) => v === 1).length, values.length) : boundedMean(values);
}

/**
 * Puts agent configurations side by side at equal budgets: checks the budgets (refusing unless
 * allowUnequal), reduces each configuration's attempts per leg, and pairs every two configurations on
 * their own shared legs: each metric's paired difference per slice with an interval that holds at small n
 * and an exact test on the legs (the primary comparison as is, the rest Holm-adjusted); what each spent,
 * and which configurations another one significantly beats at no more spend.
 */
export function compareConfigurations(configs: readonly Configuration[], options: CompareOptions = {}): CompareResult {
  if (!configs.length) throw new Error('compare: no configurations');
  const budgets = checkBudgets(configs);
  const families = [...new Set(configs.map((c) => c.family))];
  if (families.length > 1) throw new Error(`compare: configurations of different task families (${families.join(', ')}) do not compare`);
  if (!budgets.equal && !options.allowUnequal) throw new UnequalBudgetsError(budgets);
  const family = taskFamily(families[0]);
  const metrics = compareMetricsOf(family.name);
  const reducer = options.reducer ?? 'mean';
  const legs = configs.map((c) => legsOfConfig(c, family.sliceKeys));

  const paired: PairedRow[] = [];
  const pairs: Pair[] = [];
  for (let ia = 0; ia < configs.length; ia++) {
    for (let ib = ia + 1; ib < configs.length; ib++) {
      const pair = pairOf(legs[ia], legs[ib]);
      pairs.push(pair);
      slicesOf(pair.legs, family.report.levelOrder).forEach((slice, s) => {
        metrics.forEach((metric, m) => paired.push(pairedRow(metric, pair, slice, s === 0 && m === 0 ? 'primary' : 'secondary', options)));
      });
    }
  }
  const secondary = paired.filter((p) => p.role === 'secondary');
  holmAdjust(secondary.map((p) => p.p_value)).forEach((p, i) => (secondary[i].p_holm = p));

  const shared = legsSharedByAll(legs);
  const effort = configs.map((c, i) => effortOf(c.label, shared.trials[i], family.report.steps?.of));
  const successes = legs.map((l) => successOf(shared.legs.map((id) => reduceLeg(l.legs.get(id)!.scored.map((t) => metrics[0].of(t.score!)), reducer, metrics[0].binary)).filter((v): v is number => v !== null)));
  const primary = (x: string, y: string): PairedRow | undefined => paired.find((p) => p.role === 'primary' && ((p.a === x && p.b === y) || (p.a === y && p.b === x)));
  /** Whether `better` has a significantly higher success rate than `worse` on their shared legs. */
  const significantlyBetter = (better: string, worse: string): boolean => {
    const row = primary(better, worse);
    if (!row || row.p_value === null || row.diff === null || row.p_value >= ALPHA) return false;
    return row.a === better ? row.diff < 0 : row.diff > 0;
  };
  const frontier = costAccuracyFrontier(configs.map((c, i) => ({ label: c.label, effort: effort[i], success: successes[i] })), significantlyBetter);

  const summaries = configs.map((c, i) => summary(c, legs[i]));
  const rates = summaries.map((s) => s.infra_rate).filter((r): r is number => r !== null);
  const infraWarning =
    rates.length > 1 && Math.max(...rates) - Math.min(...rates) > INFRA_RATE_WARNING
      ? `WARNING: the configurations lost legs to infrastructure errors at different rates (${summaries.map((s) => `${s.label} ${s.legs_lost_to_infra}/${s.legs_run}`).join(', ')}): legs lost may not be lost at random, so the pairs' legs are not a random sample of the legs run.`
      : null;
  const result: Omit<CompareResult, 'tables'> = {
    family: family.name, unequal: !budgets.equal, budgets, reducer, configurations: summaries, infraWarning,
    pairing: { sharedLegs: shared.legs.length, sharedLegIds: shared.legs, pairs: pairs.map((p) => ({ a: p.a, b: p.b, sharedLegs: p.legs.length, notInBoth: p.notInBoth, lostToInfra: p.lostToInfra })) },
    paired, effort, frontier,
  };
  return { ...result, tables: compareTables(result, metrics[0].name, family.sliceKeys, family.report.steps?.note) };
}
