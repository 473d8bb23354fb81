import type { DataTable } from '../../../common/table.js';
import { figure5a, figure6, shortcutsTable, table11, table3, table8, table9, type TrialsByConfig } from './tables.js';
import { table7 } from './table7.js';
import { LegFactsCache } from './trials.js';

export type { PaperTrial } from './trials.js';
export type { TrialsByConfig } from './tables.js';
export { figure5a } from './tables.js';

/** The AAR paper's views of scored trials (sections 6 and the appendix tables), in the paper's order. */
export function aarPaperTables(configs: TrialsByConfig): DataTable[] {
  const legs = new LegFactsCache();
  return [table11(configs), figure5a(configs), table3(configs), table7(configs, legs), table8(configs), table9(configs), shortcutsTable(configs), figure6(configs)];
}
