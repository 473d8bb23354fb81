import { DEFAULT_FAMILY, taskFamily } from '../../tasks/registry.js';
import type { Reducer } from '../../common/reducers.js';
import type { DataTable } from '../../common/table.js';
import { unequalNote, type BudgetCheck } from '../compare/budgets.js';
import { modelsNote } from '../compare/compare-tables.js';
import { effortOf } from '../compare/effort.js';
import type { Configuration } from '../compare/select.js';

/** The AAR paper's Table 12: tokens, wall time and agent hours per configuration (it reads trial records only). */
export function resourcesTable(configs: readonly Configuration[]): DataTable {
  const rows = configs.map((c) => {
    const e = effortOf(c.label, c.trials.filter((t) => t.score !== null).map((t) => [t]));
    return { config: c.label, trials: e.trials, tokens: e.tokens_per_attempt, cost_usd: e.cost_usd_per_attempt, total_cost_usd: e.total_cost_usd, wall_s: e.wall_s_per_attempt, agent_hours: e.agent_hours };
  });
  return {
    id: 'table12', title: 'Table 12: computational resources per configuration',
    columns: ['config', 'trials', 'tokens', 'cost_usd', 'total_cost_usd', 'wall_s', 'agent_hours'], rows, percent: [],
    notes: ['tokens: mean input + output tokens per trial; wall_s: mean agent wall time per trial; agent_hours: total agent time (infrastructure errors left out).'],
  };
}

/**
 * The paper's views of the configurations' family (TaskFamily.paperTables: AAR's tables, WikiRace's Table 1,
 * loops and figures) from their scored trials, then, for AAR, its Table 12 (another family's paper has no
 * Table 12; compare's effort table gives the same figures for any family). With `legs`
 * (compare's legs every configuration has a value for) every table is on those legs, as the paired table
 * and the frontier are; without, each on the configuration's own scored trials, and each says so. Every
 * table's n counts trials (a leg's attempts each); every rate is a mean over legs of each leg's mean over
 * its attempts, so a leg with more attempts does not weigh more.
 */
export function paperTables(configs: readonly Configuration[], options: { budgets?: BudgetCheck; legs?: readonly string[]; reducer?: Reducer } = {}): DataTable[] {
  const reducer = options.reducer ?? 'mean';
  const keep = options.legs ? new Set(options.legs) : null;
  const scored = configs.map((c) => ({ ...c, trials: c.trials.filter((t) => t.score !== null && (!keep || keep.has(t.record.leg.id))) }));
  const tables: DataTable[] = [];
  const families = new Set(scored.map((c) => c.family));
  const family = families.size === 1 ? taskFamily([...families][0]) : undefined;
  if (family?.paperTables) {
    tables.push(...family.paperTables(scored.map((c) => [c.label, c.trials.map((t) => ({ config: c.label, dir: t.dir, record: t.record, score: t.score! }))]), { reducer }));
  }
  if ((family?.name ?? DEFAULT_FAMILY) === DEFAULT_FAMILY) tables.push(resourcesTable(scored));
  const counts = scored.map((c) => `${c.label} ${new Set(c.trials.map((t) => t.record.leg.id)).size} legs, ${c.trials.length} trials`).join('; ');
  const legsNote = keep
    ? `On the ${keep.size} legs every configuration has a value for, the legs of compare's effort and frontier tables (${counts}); infrastructure errors left out. n counts trials; every rate is per leg first (its attempts averaged), then over legs.`
    : `Each configuration on its own scored trials, not on shared legs (${counts}); infrastructure errors left out. n counts trials; every rate is per leg first (its attempts averaged), then over legs.`;
  const notes = [...(options.budgets && !options.budgets.equal ? [unequalNote(options.budgets)] : []), legsNote, modelsNote(configs)];
  // A view that did not reduce by the reducer asked for says so: its figures are not the frontier's.
  const unreduced = `--reduce ${reducer} is not applied in this view: its figures are per attempt, or a leg's attempts averaged (it classifies or conditions on single attempts, or counts resources).`;
  return tables.map((t) => ({ ...t, notes: [...notes, ...(reducer !== 'mean' && t.reducedBy !== reducer ? [unreduced] : []), ...t.notes] }));
}
