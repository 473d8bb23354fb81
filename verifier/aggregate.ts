import type { ReportSlice, TaskFamily } from '../tasks/family.js';
import { familyOfRecord, taskFamily } from '../tasks/registry.js';
import { sliceOfTrial } from '../tasks/slices.js';
import type { TrialResult } from './results.js';

/** One row of a report: one configuration (agent x model) on one slice of the tasks, with its family's figures. */
export type AggregateRow<Figures extends object = Record<string, unknown>> = ReportSlice & Figures & {
  /** The task family whose figures and columns the row has (not a report column). */
  family: string;
};

/** The family of a job's trials (AAR for an empty job); one job runs one family. */
export function familyOfResults(results: readonly TrialResult[]): TaskFamily {
  return results.length ? familyOfRecord(results[0].record) : taskFamily();
}

function summarize(family: TaskFamily, agent: string, model: string, variant: string, level: string, trials: TrialResult[]): AggregateRow {
  const scores = trials.map((t) => t.score).filter((s): s is object => s !== null);
  const slice: ReportSlice = { agent, model, variant, level, trials: trials.length, n: scores.length, infra_errors: trials.length - scores.length };
  return { family: family.name, ...slice, ...family.report.summarize(scores) } as AggregateRow;
}

function levelComparer(order: readonly string[]): (a: string, b: string) => number {
  return (a, b) => {
    const ia = order.indexOf(a);
    const ib = order.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib) || a.localeCompare(b);
  };
}

/**
 * Rows per configuration: all tasks, then per coarse slice, then per coarse x fine slice (the family's
 * sliceKeys: AAR's variant and level). Figures is the family's
 * row shape (AAR: AarFigures).
 */
export function aggregate<Figures extends object = Record<string, unknown>>(results: readonly TrialResult[]): AggregateRow<Figures>[] {
  const family = familyOfResults(results);
  const compareLevels = levelComparer(family.report.levelOrder);
  const configs = new Map<string, TrialResult[]>();
  for (const r of results) {
    const key = `${r.record.agent.id}\u0000${r.record.agent.model ?? ''}`;
    configs.set(key, [...(configs.get(key) ?? []), r]);
  }
  const rows: AggregateRow[] = [];
  for (const [key, trials] of [...configs].sort(([a], [b]) => a.localeCompare(b))) {
    const [agent, model] = key.split('\u0000');
    rows.push(summarize(family, agent, model || '-', '*', '*', trials));
    const sliced = trials.map((t) => ({ t, slice: sliceOfTrial(family.sliceKeys, t) }));
    const variants = [...new Set(sliced.map(({ slice }) => slice[0]))].sort();
    for (const variant of variants) {
      const inVariant = sliced.filter(({ slice }) => slice[0] === variant);
      if (variants.length > 1) rows.push(summarize(family, agent, model || '-', variant, '*', inVariant.map(({ t }) => t)));
      const levels = [...new Set(inVariant.map(({ slice }) => slice[1]))].sort(compareLevels);
      for (const level of levels) {
        rows.push(summarize(family, agent, model || '-', variant, level, inVariant.filter(({ slice }) => slice[1] === level).map(({ t }) => t)));
      }
    }
  }
  return rows as AggregateRow<Figures>[];
}
