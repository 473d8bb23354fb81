import type { Cell, DataTable } from '../../../common/table.js';
import type { Reducer } from '../../../common/reducers.js';
import { LEVELS } from '../schema.js';
import { aarSliceOf } from '../slices.js';
import { byVariant, faOf, groupBy, legCount, legShare, perLeg, pvrOf, rcrOf, type PaperTrial } from './trials.js';

/** The trials of each configuration, in configuration order. */
export type TrialsByConfig = readonly [string, readonly PaperTrial[]][];

const levelsOf = (trials: readonly PaperTrial[]): string[] => {
  const seen = new Set(trials.map((t) => aarSliceOf(t).level));
  return [...LEVELS.filter((l) => seen.has(l)), ...[...seen].filter((l) => !(LEVELS as readonly string[]).includes(l)).sort()];
};

/** How the tables that reduce a leg's FA (11, 7, 8, Figures 5a and 6) do it, and the note they carry. */
export function reducedNote(reducer: Reducer): string {
  return reducer === 'mean'
    ? 'FA per leg: the mean of its attempts (--reduce mean), then over legs.'
    : `FA per leg by ${reducer} (--reduce): ${reducer === 'pass@k' ? '1 when any of its attempts is right' : '1 when all are'}, then over legs, as compare's frontier; PVR and RCR per leg by their mean.`;
}

const fa = (reducer: Reducer) => (ts: readonly PaperTrial[]): number | null => faOf(ts, reducer);

/** Table 11: configuration x variant, FA, PVR and RCR per level and overall. */
export function table11(configs: TrialsByConfig, reducer: Reducer = 'mean'): DataTable {
  const levels = levelsOf(configs.flatMap(([, ts]) => ts));
  const rows: Record<string, Cell>[] = [];
  for (const [config, trials] of configs) {
    for (const [variant, inVariant] of byVariant(trials)) {
      const perLevel = groupBy(inVariant, (t) => aarSliceOf(t).level);
      for (const [metric, of] of [['FA', fa(reducer)], ['PVR', pvrOf], ['RCR', rcrOf]] as const) {
        const row: Record<string, Cell> = { config, variant, metric };
        for (const l of levels) row[l] = perLevel.has(l) ? of(perLevel.get(l)!) : null;
        row.overall = of(inVariant);
        row.n = inVariant.length;
        row.legs = legCount(inVariant);
        rows.push(row);
      }
    }
  }
  return { id: 'table11', title: 'Table 11: FA, PVR and RCR per level and overall', columns: ['config', 'variant', 'metric', ...levels, 'overall', 'n', 'legs'], rows, percent: [...levels, 'overall'], notes: [reducedNote(reducer)], reducedBy: reducer };
}

/** Why trials failed, as shares of all scored trials (paper: % of trials); a run that ended early is reported as such. */
const DIAGNOSES = ['navigation', 'tool_use', 'computation', 'timeout', 'step_limit', 'agent_error'] as const;

/** Table 3: error decomposition by level and variant. */
export function table3(configs: TrialsByConfig): DataTable {
  const rows: Record<string, Cell>[] = [];
  for (const [config, trials] of configs) {
    for (const [variant, inVariant] of byVariant(trials)) {
      const groups: [string, PaperTrial[]][] = [...levelsOf(inVariant).map((l): [string, PaperTrial[]] => [l, inVariant.filter((t) => aarSliceOf(t).level === l)]), ['all', inVariant]];
      for (const [level, ts] of groups) {
        const row: Record<string, Cell> = { config, variant, level, n: ts.length, legs: legCount(ts), correct: legShare(ts, (t) => t.score.fa === 1) };
        for (const d of DIAGNOSES) row[d] = legShare(ts, (t) => t.score.diagnosis === d);
        for (const d of PAPER_SPLIT) row[`paper_${d}`] = legShare(ts, (t) => paperClass(t) === d);
        rows.push(row);
      }
    }
  }
  return {
    id: 'table3', title: 'Table 3: error decomposition (% of trials) by level and variant',
    columns: ['config', 'variant', 'level', 'n', 'legs', 'correct', ...DIAGNOSES, ...PAPER_SPLIT.map((d) => `paper_${d}`)], rows,
    percent: ['correct', ...DIAGNOSES, ...PAPER_SPLIT.map((d) => `paper_${d}`)],
    notes: [
      'navigation: PVR < 0.5; tool_use: PVR >= 0.5, RCR < 0.5; computation: both >= 0.5. A wrong trial that timed out, used its whole step budget without an answer, or whose agent crashed is counted under timeout, step_limit or agent_error instead.',
      "paper_*: the paper's three-way split of every wrong trial by PVR and RCR alone (runs that ended early included), as its Table 3 reports it.",
    ],
  };
}

const PAPER_SPLIT = ['navigation', 'tool_use', 'computation'] as const;

/** The paper's class of a wrong trial: by PVR and RCR alone, whatever ended the run (a missing PVR or RCR counts as 0); null when right. */
function paperClass(t: PaperTrial): (typeof PAPER_SPLIT)[number] | null {
  if (t.score.fa === 1) return null;
  if ((t.score.pvr ?? 0) < 0.5) return 'navigation';
  return (t.score.rcr ?? 0) < 0.5 ? 'tool_use' : 'computation';
}

/** Leg-length bins of Table 8 (stops, inclusive). */
export const LENGTH_BINS: readonly [number, number][] = [[1, 8], [9, 14], [15, 20], [21, 26], [27, 40], [41, Infinity]];
const binName = ([lo, hi]: [number, number]): string => (hi === Infinity ? `${lo}+` : `${lo}-${hi}`);

/** Table 8: FA, PVR and RCR by leg length in stops. */
export function table8(configs: TrialsByConfig, reducer: Reducer = 'mean'): DataTable {
  const rows: Record<string, Cell>[] = [];
  for (const [config, trials] of configs) {
    for (const [variant, inVariant] of byVariant(trials)) {
      for (const bin of LENGTH_BINS) {
        const ts = inVariant.filter((t) => t.score.stops_total >= bin[0] && t.score.stops_total <= bin[1]);
        if (ts.length) rows.push({ config, variant, stops: binName(bin), n: ts.length, legs: legCount(ts), fa: faOf(ts, reducer), pvr: pvrOf(ts), rcr: rcrOf(ts) });
      }
    }
  }
  return { id: 'table8', title: 'Table 8: FA, PVR and RCR by leg length (stops)', columns: ['config', 'variant', 'stops', 'n', 'legs', 'fa', 'pvr', 'rcr'], rows, percent: ['fa', 'pvr', 'rcr'], notes: [reducedNote(reducer)], reducedBy: reducer };
}

/**
 * Table 9: recovery, FA given PVR >= 0.8, and given PVR and RCR >= 0.8. The paper counts legs: legs_* are
 * the legs with at least one such attempt, trials_* those attempts; FA is over those attempts, per leg first.
 */
export function table9(configs: TrialsByConfig): DataTable {
  const rows: Record<string, Cell>[] = [];
  for (const [config, trials] of configs) {
    for (const [variant, ts] of byVariant(trials)) {
      const highPvr = ts.filter((t) => t.score.pvr !== null && t.score.pvr >= 0.8);
      const both = highPvr.filter((t) => t.score.rcr !== null && t.score.rcr >= 0.8);
      rows.push({
        config, variant, legs: legCount(ts), trials: ts.length,
        legs_pvr_high: legCount(highPvr), trials_pvr_high: highPvr.length, fa_given_pvr_high: faOf(highPvr),
        legs_both_high: legCount(both), trials_both_high: both.length, fa_given_both_high: faOf(both),
      });
    }
  }
  return {
    id: 'table9', title: 'Table 9: recovery rates, FA given PVR >= 0.8 and given PVR and RCR >= 0.8',
    columns: ['config', 'variant', 'legs', 'trials', 'legs_pvr_high', 'trials_pvr_high', 'fa_given_pvr_high', 'legs_both_high', 'trials_both_high', 'fa_given_both_high'], rows, percent: ['fa_given_pvr_high', 'fa_given_both_high'],
    notes: ["legs_*: legs with at least one attempt meeting the condition (the paper's count: one attempt per leg); trials_*: those attempts. fa_given_*: FA of the attempts meeting it, per leg first, then over those legs."],
  };
}

/** Shortcuts (correct with PVR < 0.3) and near-misses (wrong with intermediate rate >= 0.8). */
export function shortcutsTable(configs: TrialsByConfig): DataTable {
  const rows: Record<string, Cell>[] = [];
  for (const [config, trials] of configs) {
    for (const [variant, ts] of byVariant(trials)) {
      const correct = ts.filter((t) => t.score.fa === 1);
      const shortcuts = ts.filter((t) => t.score.shortcut);
      const nearMisses = ts.filter((t) => t.score.near_miss);
      rows.push({
        config, variant, n: ts.length, fa: faOf(ts),
        shortcuts: shortcuts.length, shortcut_share: legShare(ts, (t) => t.score.shortcut), shortcut_share_of_correct: legShare(correct, (t) => t.score.shortcut),
        shortcut_rcr: rcrOf(shortcuts), shortcut_intermediate: perLeg(shortcuts, (t) => t.score.intermediate_rate),
        fa_without_shortcuts: legShare(ts, (t) => t.score.fa === 1 && !t.score.shortcut),
        near_misses: nearMisses.length, near_miss_share: legShare(ts, (t) => t.score.near_miss),
      });
    }
  }
  return {
    id: 'shortcuts', title: 'Shortcuts (correct, PVR < 0.3) and near-misses (wrong, intermediate rate >= 0.8)',
    columns: ['config', 'variant', 'n', 'fa', 'shortcuts', 'shortcut_share', 'shortcut_share_of_correct', 'shortcut_rcr', 'shortcut_intermediate', 'fa_without_shortcuts', 'near_misses', 'near_miss_share'],
    rows, percent: ['fa', 'shortcut_share', 'shortcut_share_of_correct', 'shortcut_rcr', 'shortcut_intermediate', 'fa_without_shortcuts', 'near_miss_share'], notes: [],
  };
}

/** Figure 6: the change from AAR-Linear to AAR-DAG per configuration (DAG minus Linear). */
export function figure6(configs: TrialsByConfig, variants: { linear: string; dag: string } = { linear: 'aar-linear', dag: 'aar-dag' }, reducer: Reducer = 'mean'): DataTable {
  const rows: Record<string, Cell>[] = [];
  for (const [config, trials] of configs) {
    const lin = trials.filter((t) => aarSliceOf(t).variant === variants.linear);
    const dag = trials.filter((t) => aarSliceOf(t).variant === variants.dag);
    for (const [metric, of] of [['FA', fa(reducer)], ['PVR', pvrOf], ['RCR', rcrOf]] as const) {
      const a = of(lin);
      const b = of(dag);
      rows.push({ config, metric, linear: a, dag: b, change: a === null || b === null ? null : b - a, n_linear: lin.length, n_dag: dag.length });
    }
  }
  return {
    id: 'figure6', title: `Figure 6: ${variants.linear} -> ${variants.dag} change per configuration`,
    columns: ['config', 'metric', 'linear', 'dag', 'change', 'n_linear', 'n_dag'], rows, percent: ['linear', 'dag', 'change'], notes: [reducedNote(reducer)], reducedBy: reducer,
  };
}

/**
 * Figure 5a: FA, PVR and RCR of each configuration over all its legs as the paper weights them, the
 * average of each variant's value (mean over its legs, each leg's attempts averaged first) weighted by that
 * variant's legs; the per-variant
 * values and leg counts beside it.
 */
export function figure5a(configs: TrialsByConfig, variants: { linear: string; dag: string } = { linear: 'aar-linear', dag: 'aar-dag' }, reducer: Reducer = 'mean'): DataTable {
  const rows: Record<string, Cell>[] = [];
  for (const [config, trials] of configs) {
    const perVariant = [...groupBy(trials, (t) => aarSliceOf(t).variant)].map(([variant, ts]) => ({ variant, ts, legs: legCount(ts) }));
    const legsOf = (variant: string) => perVariant.find((v) => v.variant === variant)?.legs ?? 0;
    for (const [metric, of] of [['FA', fa(reducer)], ['PVR', pvrOf], ['RCR', rcrOf]] as const) {
      const valued = perVariant.map((v) => ({ ...v, value: of(v.ts) })).filter((v) => v.value !== null);
      const weight = valued.reduce((a, v) => a + v.legs, 0);
      const valueOf = (variant: string) => valued.find((v) => v.variant === variant)?.value ?? null;
      rows.push({
        config, metric, weighted: weight ? valued.reduce((a, v) => a + (v.value as number) * v.legs, 0) / weight : null,
        linear: valueOf(variants.linear), dag: valueOf(variants.dag), legs: weight, legs_linear: legsOf(variants.linear), legs_dag: legsOf(variants.dag), trials: trials.length,
      });
    }
  }
  return {
    id: 'figure5a', title: `Figure 5a: FA, PVR and RCR over all legs (weighted average of ${variants.linear} and ${variants.dag})`,
    columns: ['config', 'metric', 'weighted', 'linear', 'dag', 'legs', 'legs_linear', 'legs_dag', 'trials'], rows, percent: ['weighted', 'linear', 'dag'],
    reducedBy: reducer,
    notes: [reducedNote(reducer), `weighted: each variant's value (mean over its legs of each leg's mean over its attempts) weighted by its number of legs, as the paper's Figure 5a averages ${variants.linear} and ${variants.dag}; legs: the legs weighed (those of variants with a value), n for the weighted value. Every variant present counts, not only these two.`],
  };
}
