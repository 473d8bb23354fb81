import type { CompareMetric } from '../../tasks/family.js';
import { taskFamily } from '../../tasks/registry.js';
import type { DataTable } from '../../tasks/table.js';
import { checkBudgets, UnequalBudgetsError, unequalNote, type BudgetCheck } from './budgets.js';
import { costAccuracyFrontier, effortOf, type EffortRow, type FrontierRow } from './effort.js';
import { mcnemarExact, pairedBootstrap } from './paired-stats.js';
import { pairTrials, slicesOf, type PairedLeg } from './pairing.js';
import type { Configuration } from './select.js';

export interface CompareOptions {
  /** Compare although budgets differ; every table then carries a note saying so. */
  allowUnequal?: boolean;
  /** Seed of the paired bootstrap (default 0): the same seed gives the same intervals. */
  seed?: number;
  /** Bootstrap resamples (default 2000). */
  resamples?: number;
}

/** One metric's paired difference between two configurations on one slice of the shared legs. */
export interface PairedRow {
  a: string;
  b: string;
  metric: string;
  variant: string;
  level: string;
  /** Legs where the metric is defined for both. */
  n: number;
  a_mean: number | null;
  b_mean: number | null;
  /** b - a. */
  diff: number | null;
  lo: number | null;
  hi: number | null;
  /** Exact McNemar p-value (binary metrics only). */
  p_value: number | null;
  /** Legs only a got right / only b got right (binary metrics only). */
  discordant_a: number | null;
  discordant_b: number | null;
}

export interface CompareResult {
  family: string;
  unequal: boolean;
  budgets: BudgetCheck;
  configurations: { label: string; jobDir: string; agent: string; model: string | null; trials: number; infraErrors: number }[];
  pairing: { sharedLegs: number; notInEvery: number; excludedForInfra: number; infraErrors: Record<string, number> };
  paired: PairedRow[];
  effort: EffortRow[];
  frontier: FrontierRow[];
  tables: DataTable[];
}

/** The figures compare pairs: the family's own, or its success rate alone. */
export function compareMetricsOf(familyName: string): readonly CompareMetric<object>[] {
  const family = taskFamily(familyName);
  return family.report.compareMetrics ?? [{ name: family.progress.label.toLowerCase(), binary: true, of: (s: object) => family.progress.success(s) }];
}

function pairedRow(metric: CompareMetric<object>, ia: number, ib: number, labels: readonly string[], slice: { variant: string; level: string; legs: PairedLeg[] }, options: CompareOptions): PairedRow {
  const a: number[] = [];
  const b: number[] = [];
  for (const leg of slice.legs) {
    const va = metric.of(leg.trials[ia].score!);
    const vb = metric.of(leg.trials[ib].score!);
    if (va === null || vb === null) continue;
    a.push(va);
    b.push(vb);
  }
  const interval = pairedBootstrap(a, b, { seed: options.seed ?? 0, resamples: options.resamples });
  let discordantA: number | null = null;
  let discordantB: number | null = null;
  if (metric.binary) {
    discordantA = a.filter((x, i) => x === 1 && b[i] === 0).length;
    discordantB = a.filter((x, i) => x === 0 && b[i] === 1).length;
  }
  return {
    a: labels[ia], b: labels[ib], metric: metric.name, variant: slice.variant, level: slice.level, n: interval.n,
    a_mean: interval.meanA, b_mean: interval.meanB, diff: interval.diff, lo: interval.lo, hi: interval.hi,
    p_value: discordantA === null || !a.length ? null : mcnemarExact(discordantA, discordantB!),
    discordant_a: discordantA, discordant_b: discordantB,
  };
}

/**
 * Puts agent configurations side by side at equal budgets: checks the budgets (refusing unless
 * allowUnequal), pairs them on the legs every one finished, and gives each metric's paired difference per
 * slice, what each spent per trial, and which configurations the cost-accuracy frontier dominates.
 */
export function compareConfigurations(configs: readonly Configuration[], options: CompareOptions = {}): CompareResult {
  if (!configs.length) throw new Error('compare: no configurations');
  const budgets = checkBudgets(configs);
  const families = [...new Set(configs.map((c) => c.family))];
  if (families.length > 1) throw new Error(`compare: configurations of different task families (${families.join(', ')}) do not compare`);
  if (!budgets.equal && !options.allowUnequal) throw new UnequalBudgetsError(budgets);
  const family = taskFamily(families[0]);
  const metrics = compareMetricsOf(family.name);
  const labels = configs.map((c) => c.label);
  const pairing = pairTrials(configs);
  const slices = slicesOf(pairing.legs, family.report.levelOrder);

  const paired: PairedRow[] = [];
  for (let ia = 0; ia < configs.length; ia++) {
    for (let ib = ia + 1; ib < configs.length; ib++) {
      for (const slice of slices) for (const metric of metrics) paired.push(pairedRow(metric, ia, ib, labels, slice, options));
    }
  }
  const sharedTrials = (i: number) => pairing.legs.map((l) => l.trials[i]);
  const effort = configs.map((c, i) => effortOf(c.label, sharedTrials(i)));
  const success = configs.map((_, i) => {
    const values = sharedTrials(i).map((t) => metrics[0].of(t.score!)).filter((v): v is number => v !== null);
    return values.length ? values.reduce((s, v) => s + v, 0) / values.length : null;
  });
  const frontier = costAccuracyFrontier(configs.map((c, i) => ({ label: c.label, effort: effort[i], success: success[i] })));
  const result: Omit<CompareResult, 'tables'> = {
    family: family.name,
    unequal: !budgets.equal,
    budgets,
    configurations: configs.map((c) => ({
      label: c.label, jobDir: c.jobDir, agent: c.agent, model: c.model, trials: c.trials.length, infraErrors: c.trials.filter((t) => t.score === null).length,
    })),
    pairing: { sharedLegs: pairing.legs.length, notInEvery: pairing.notInEvery, excludedForInfra: pairing.excludedForInfra, infraErrors: pairing.infraErrors },
    paired,
    effort,
    frontier,
  };
  return { ...result, tables: compareTables(result, metrics[0].name) };
}

function compareTables(r: Omit<CompareResult, 'tables'>, successName: string): DataTable[] {
  const notes = r.unequal ? [unequalNote(r.budgets)] : [];
  const pairingNote = `Paired on ${r.pairing.sharedLegs} leg-attempts every configuration finished; left out: ${r.pairing.notInEvery} not run by every configuration, ${r.pairing.excludedForInfra} with an infrastructure error (${Object.entries(r.pairing.infraErrors).map(([l, n]) => `${l}: ${n}`).join(', ')}).`;
  const budgets: DataTable = {
    id: 'budgets', title: 'Equal budgets', columns: ['key', ...r.configurations.map((c) => c.label)],
    rows: r.budgets.differences.map((d) => ({ key: d.key, ...d.values })), percent: [],
    notes: [...notes, r.budgets.equal ? 'Budgets checked and equal: same legs (sha256), step budgets, timeout, tools (mode, store, output limit), token and cost caps, harness version.' : 'Differences:'],
  };
  return [
    budgets,
    {
      id: 'paired', title: 'Paired differences (b - a) with 95% intervals', percent: ['a_mean', 'b_mean', 'diff', 'lo', 'hi'],
      columns: ['a', 'b', 'metric', 'variant', 'level', 'n', 'a_mean', 'b_mean', 'diff', 'lo', 'hi', 'p_value', 'discordant_a', 'discordant_b'],
      rows: r.paired.map((p) => ({ ...p })),
      notes: [...notes, pairingNote, 'Intervals: seeded paired bootstrap (percentile). p_value: exact McNemar test on the discordant legs (binary metrics).'],
    },
    {
      id: 'effort', title: 'Cost and effort per trial (shared legs)', percent: [],
      columns: ['label', 'trials', 'tokens', 'input_tokens', 'output_tokens', 'cost_usd', 'total_cost_usd', 'wall_s', 'agent_hours', 'steps', 'tool_calls'],
      rows: r.effort.map((e) => ({ ...e })), notes,
    },
    {
      id: 'frontier', title: `Cost-accuracy frontier (${successName} vs spend per trial)`, percent: ['success'],
      columns: ['label', 'axis', 'spend', 'success', 'dominated', 'dominated_by'],
      rows: r.frontier.map((f) => ({ label: f.label, axis: f.axis, spend: f.spend, success: f.success, dominated: f.dominated_by.length ? 'yes' : 'no', dominated_by: f.dominated_by.join(', ') || null })),
      notes,
    },
  ];
}
