import { aarPaperTables, type PaperTrial } from '../../tasks/aar/paper-tables/index.js';
import type { TrialScore } from '../../tasks/aar/scoring/score.js';
import type { DataTable } from '../../tasks/table.js';
import { unequalNote, type BudgetCheck } from '../compare/budgets.js';
import { effortOf } from '../compare/effort.js';
import type { Configuration } from '../compare/select.js';

/** Table 12: tokens, wall time and agent hours per configuration (any family: it reads trial records only). */
export function resourcesTable(configs: readonly Configuration[]): DataTable {
  const rows = configs.map((c) => {
    const e = effortOf(c.label, c.trials.filter((t) => t.score !== null));
    return { config: c.label, trials: e.trials, tokens: e.tokens, cost_usd: e.cost_usd, total_cost_usd: e.total_cost_usd, wall_s: e.wall_s, agent_hours: e.agent_hours };
  });
  return {
    id: 'table12', title: 'Table 12: computational resources per configuration',
    columns: ['config', 'trials', 'tokens', 'cost_usd', 'total_cost_usd', 'wall_s', 'agent_hours'], rows, percent: [],
    notes: ['tokens: mean input + output tokens per trial; wall_s: mean agent wall time per trial; agent_hours: total agent time (infrastructure errors left out).'],
  };
}

/**
 * The AAR paper's views computed from the configurations' scored trials. Families other than AAR get
 * Table 12 only (their own views come through the same DataTable shape when they have some).
 */
export function paperTables(configs: readonly Configuration[], options: { budgets?: BudgetCheck } = {}): DataTable[] {
  const tables: DataTable[] = [];
  if (configs.length && configs.every((c) => c.family === 'aar')) {
    tables.push(
      ...aarPaperTables(
        configs.map((c) => [c.label, c.trials.filter((t) => t.score !== null).map((t): PaperTrial => ({ config: c.label, dir: t.dir, record: t.record, score: t.score as TrialScore }))]),
      ),
    );
  }
  tables.push(resourcesTable(configs));
  const note = options.budgets && !options.budgets.equal ? unequalNote(options.budgets) : null;
  return note ? tables.map((t) => ({ ...t, notes: [note, ...t.notes] })) : tables;
}
