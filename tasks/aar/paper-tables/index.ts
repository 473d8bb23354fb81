import type { DataTable } from '../../../common/table.js';
import type { PaperOptions } from '../../family.js';
import { figure5a, figure6, shortcutsTable, table11, table3, table8, table9, type TrialsByConfig } from './tables.js';
import { table7 } from './table7.js';
import { LegFactsCache } from './trials.js';

export type { PaperTrial } from './trials.js';
export type { TrialsByConfig } from './tables.js';
export { figure5a } from './tables.js';

/**
 * The AAR paper's views of scored trials (sections 6 and the appendix tables), in the paper's order.
 * `reducer` (compare's --reduce) makes a leg's FA in Tables 11, 7, 8 and Figures 5a and 6; Tables 3, 9 and
 * the shortcuts classify single attempts, so they average them whatever it is (each table says which).
 */
export function aarPaperTables(configs: TrialsByConfig, options: PaperOptions = {}): DataTable[] {
  const legs = new LegFactsCache();
  const reducer = options.reducer ?? 'mean';
  return [table11(configs, reducer), figure5a(configs, undefined, reducer), table3(configs), table7(configs, legs, reducer), table8(configs, reducer), table9(configs), shortcutsTable(configs), figure6(configs, undefined, reducer)];
}
