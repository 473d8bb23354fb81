import type { CompareMetric } from '../../tasks/family.js';
import { taskFamily } from '../../tasks/registry.js';
import { mcnemarMde } from '../../common/mcnemar.js';
import { reduceLeg, usesEveryAttempt, type Reducer } from '../../common/reducers.js';
import { approximateMde, boundedMean, proportion } from '../../common/stats.js';
import { checkBudgets, UnequalBudgetsError } from './budgets.js';
import { compareTables } from './compare-tables.js';
import { costAccuracyFrontier, effortOf } from './effort.js';
import { holmAdjust } from './paired-stats.js';
import { comparePaired, type PairedComparison } from './paired-test.js';
import { legsOfConfig, legsSharedByAll, pairOf, slicesOf, type ConfigLegs, type Pair, type PairedLeg } from './pairing.js';
import type { Configuration } from './select.js';

import { ALPHA, INFRA_RATE_WARNING, type CompareOptions, type CompareResult, type ConfigurationSummary, type FrontierTest, type PairedRow } from './result.js';

export { ALPHA, INFRA_RATE_WARNING, type CompareOptions, type CompareResult, type ConfigurationSummary, type PairedRow };
export type { FrontierTest, PairSummary } from './result.js';

/** The figures compare pairs: the family's own, or its success rate alone. */
export function compareMetricsOf(familyName: string): readonly CompareMetric<object>[] {
  const family = taskFamily(familyName);
  return family.report.compareMetrics ?? [{ name: family.progress.label.toLowerCase(), binary: true, of: (s: object) => family.progress.success(s) }];
}

const attemptsText = (counts: number[]): string => (!counts.length ? '-' : Math.min(...counts) === Math.max(...counts) ? String(counts[0]) : `${Math.min(...counts)}-${Math.max(...counts)}`);

/** Where a row's 95% interval and its test at ALPHA say different things; the test decides. */
function disagreement(r: PairedComparison): string | null {
  if (r.p === null || r.lo === null || r.hi === null) return null;
  const excludesZero = r.lo > 0 || r.hi < 0;
  if (excludesZero && r.p >= ALPHA) return `interval excludes 0, p >= ${ALPHA}`;
  if (!excludesZero && r.p < ALPHA) return `p < ${ALPHA}, interval holds 0`;
  return null;
}

/** The primary row's power figure: exact for exact McNemar (at the discordance measured), approximate (t) for the sign-flip test on per-leg means. */
function powerOf(r: PairedComparison, a: readonly number[], b: readonly number[]): Pick<PairedRow, 'mde_80' | 'mde_80_method'> {
  if (r.n < 2 || r.diff === null) return { mde_80: null, mde_80_method: null };
  if (r.test === 'McNemar exact') return { mde_80: mcnemarMde(r.n, { discordance: (r.aAbove + r.bAbove) / r.n }, ALPHA), mde_80_method: 'exact' };
  const d = a.map((x, i) => b[i] - x);
  const sd = Math.sqrt(d.reduce((s, x) => s + (x - r.diff!) ** 2, 0) / (r.n - 1));
  return { mde_80: approximateMde(r.n, sd), mde_80_method: 'approximate (t)' };
}

/** A paired row, and the legs it used (for counting a slice of the same legs once). */
interface Row { row: PairedRow; legs: string }

function pairedRow(metric: CompareMetric<object>, pair: Pair, slice: { variant: string; level: string; legs: PairedLeg[] }, role: PairedRow['role'], options: CompareOptions): Row {
  const reducer = options.reducer ?? 'mean';
  const a: number[] = [];
  const b: number[] = [];
  const counts: number[] = [];
  const used: string[] = [];
  for (const leg of slice.legs) {
    const va = reduceLeg(leg.trials[0].map((t) => metric.of(t.score!)), reducer, metric.binary);
    const vb = reduceLeg(leg.trials[1].map((t) => metric.of(t.score!)), reducer, metric.binary);
    if (va === null || vb === null) continue;
    a.push(va);
    b.push(vb);
    used.push(leg.key);
    counts.push(leg.trials[0].length, leg.trials[1].length);
  }
  const r = comparePaired(a, b, { seed: options.seed ?? 0, resamples: options.resamples });
  const power = role === 'primary' ? powerOf(r, a, b) : { mde_80: null, mde_80_method: null };
  const row: PairedRow = {
    a: pair.a, b: pair.b, metric: metric.name, variant: slice.variant, level: slice.level, role, n: r.n,
    reducer: metric.binary ? reducer : 'mean', attempts: attemptsText(counts),
    a_mean: r.meanA, b_mean: r.meanB, diff: r.diff, lo: r.lo, hi: r.hi, interval: r.interval, test: r.test, p_value: r.p, p_holm: null,
    interval_vs_test: disagreement(r), discordant_a: r.aAbove, discordant_b: r.bAbove, small_n: r.smallN && r.n > 0 ? 'yes' : null, ...power,
  };
  return { row, legs: `${pair.a}\0${pair.b}\0${metric.name}\0${used.join('\0')}` };
}

/** Holm over the rows, a set of rows on the same legs (same pair and metric) counted once: each gets that one test's adjusted p. */
function holmOnce(rows: readonly Row[]): void {
  const distinct = [...new Map(rows.map((r) => [r.legs, r.row.p_value])).entries()];
  const adjusted = new Map(holmAdjust(distinct.map(([, p]) => p)).map((p, i) => [distinct[i][0], p]));
  for (const r of rows) r.row.p_holm = adjusted.get(r.legs) ?? null;
}

function summary(c: Configuration, legs: ConfigLegs): ConfigurationSummary {
  return {
    label: c.label, jobDir: c.jobDir, agent: c.agent, model: c.model, trials: c.trials.length,
    legs_run: legs.legsRun, legs_lost_to_infra: legs.legsLostToInfra, infra_rate: legs.legsRun ? legs.legsLostToInfra / legs.legsRun : null,
    attempts_lost_to_infra: legs.attemptsLostToInfra, attempts_per_leg: legs.attempts[0] === legs.attempts[1] ? String(legs.attempts[0]) : `${legs.attempts[0]}-${legs.attempts[1]}`,
  };
}

/** The success rate of a configuration on legs (one reduced value each) with its 95% interval: Wilson for 0/1 values. */
function successOf(values: number[]): { n: number; mean: number | null; lo: number | null; hi: number | null } {
  const zeroOne = values.every((v) => v === 0 || v === 1);
  return zeroOne ? proportion(values.filter((v) => v === 1).length, values.length) : boundedMean(values);
}

/**
 * The frontier's tests: every pair's primary metric on the same legs as the success the frontier shows
 * (those every configuration has a value for), Holm-adjusted as one family of k(k-1)/2.
 */
function frontierTests(labels: readonly string[], values: readonly (number | null)[][], pairs: readonly Pair[], sharedLegs: readonly string[], options: CompareOptions): FrontierTest[] {
  const tests: FrontierTest[] = [];
  let pair = 0;
  for (let ia = 0; ia < labels.length; ia++) {
    for (let ib = ia + 1; ib < labels.length; ib++, pair++) {
      const keep = values[ia].map((v, i) => v !== null && values[ib][i] !== null);
      const a = values[ia].filter((_, i) => keep[i]) as number[];
      const b = values[ib].filter((_, i) => keep[i]) as number[];
      const r = comparePaired(a, b, { seed: options.seed ?? 0, resamples: options.resamples });
      const own = pairs[pair].legs.map((l) => l.key);
      tests.push({
        a: labels[ia], b: labels[ib], legs: r.n, a_success: r.meanA, b_success: r.meanB, diff: r.diff, test: r.test, p_value: r.p, p_holm: null,
        same_legs_as_primary: own.length === sharedLegs.length && own.every((id, i) => id === sharedLegs[i]),
      });
    }
  }
  holmAdjust(tests.map((t) => t.p_value)).forEach((p, i) => (tests[i].p_holm = p));
  return tests;
}

/**
 * Puts agent configurations side by side at equal budgets: checks the budgets (refusing unless
 * allowUnequal), reduces each configuration's attempts per leg, and pairs every two configurations on
 * their own shared legs: each metric's paired difference per slice with an interval that holds at small n
 * and an exact test on the legs (the primary comparisons, one per pair, Holm-adjusted as one family; the
 * rest as another); what each spent per leg, and which configurations another one significantly beats at
 * no more spend, tested and shown on the legs every configuration has a value for.
 */
export function compareConfigurations(configs: readonly Configuration[], options: CompareOptions = {}): CompareResult {
  if (!configs.length) throw new Error('compare: no configurations');
  const reducer: Reducer = options.reducer ?? 'mean';
  const budgets = checkBudgets(configs, { reducer });
  const families = [...new Set(configs.map((c) => c.family))];
  if (families.length > 1) throw new Error(`compare: configurations of different task families (${families.join(', ')}) do not compare`);
  if (!budgets.equal && !options.allowUnequal) throw new UnequalBudgetsError(budgets);
  const family = taskFamily(families[0]);
  const metrics = compareMetricsOf(family.name);
  const legs = configs.map((c) => legsOfConfig(c, family.sliceKeys));

  const rows: Row[] = [];
  const pairs: Pair[] = [];
  for (let ia = 0; ia < configs.length; ia++) {
    for (let ib = ia + 1; ib < configs.length; ib++) {
      const pair = pairOf(legs[ia], legs[ib]);
      pairs.push(pair);
      slicesOf(pair.legs, family.report.levelOrder).forEach((slice, s) => {
        metrics.forEach((metric, m) => rows.push(pairedRow(metric, pair, slice, s === 0 && m === 0 ? 'primary' : 'secondary', options)));
      });
    }
  }
  holmOnce(rows.filter((r) => r.row.role === 'primary'));
  holmOnce(rows.filter((r) => r.row.role === 'secondary'));
  const paired = rows.map((r) => r.row);

  const shared = legsSharedByAll(legs);
  const scoredOn = (l: ConfigLegs) => shared.legs.map((id) => l.legs.get(id)!.scored);
  const effort = configs.map((c, i) => effortOf(c.label, scoredOn(legs[i]), family.report.steps?.of));
  const values = legs.map((l) => scoredOn(l).map((attempts) => reduceLeg(attempts.map((t) => metrics[0].of(t.score!)), reducer, metrics[0].binary)));
  const successes = values.map((v) => successOf(v.filter((x): x is number => x !== null)));
  const tests = frontierTests(configs.map((c) => c.label), values, pairs, shared.legs, options);
  /** Whether `better` has a significantly higher success rate than `worse` on the frontier's legs (Holm-adjusted). */
  const significantlyBetter = (better: string, worse: string): boolean => {
    const t = tests.find((x) => (x.a === better && x.b === worse) || (x.a === worse && x.b === better));
    if (!t || t.p_holm === null || t.diff === null || t.p_holm >= ALPHA) return false;
    return t.a === better ? t.diff < 0 : t.diff > 0;
  };
  const per = usesEveryAttempt(reducer) ? 'leg' : 'attempt';
  const frontier = costAccuracyFrontier(configs.map((c, i) => ({ label: c.label, effort: effort[i], success: successes[i] })), per, significantlyBetter);

  const summaries = configs.map((c, i) => summary(c, legs[i]));
  const rates = summaries.map((s) => s.infra_rate).filter((r): r is number => r !== null);
  const infraWarning =
    rates.length > 1 && Math.max(...rates) - Math.min(...rates) > INFRA_RATE_WARNING
      ? `WARNING: the configurations lost legs to infrastructure errors at different rates (${summaries.map((s) => `${s.label} ${s.legs_lost_to_infra}/${s.legs_run}`).join(', ')}): legs lost may not be lost at random, so the pairs' legs are not a random sample of the legs run.`
      : null;
  const result: Omit<CompareResult, 'tables'> = {
    family: family.name, unequal: !budgets.equal, budgets, reducer, configurations: summaries, infraWarning,
    pairing: { sharedLegs: shared.legs.length, sharedLegIds: shared.legs, pairs: pairs.map((p) => ({ a: p.a, b: p.b, sharedLegs: p.legs.length, notInBoth: p.notInBoth, lostToInfra: p.lostToInfra })) },
    paired, effort, frontier, frontierTests: tests,
  };
  return { ...result, tables: compareTables(result, metrics[0].name, family.sliceKeys, family.report.steps?.note) };
}
