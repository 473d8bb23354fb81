import { displayCell, type DataTable } from '../../common/table.js';
import { checkBudgets } from '../compare/budgets.js';
import { compareConfigurations } from '../compare/compare.js';
import { loadConfigurations } from '../compare/select.js';
import { paperTables } from '../paper-tables/index.js';
import { esc } from './escape.js';

/** What `aar compare --paper` computes for the report's jobs: the paired comparison (2+ configurations) and the paper's tables. */
export interface Analysis {
  /** Said above the tables: unequal budgets, or why there is no comparison. */
  notes: string[];
  tables: DataTable[];
}

/**
 * The comparison and the paper's tables of the jobs, through `aar compare`'s own functions. A report is
 * for looking, so unequal budgets do not refuse it: every table then carries compare's UNEQUAL note.
 */
export function analyseJobs(jobDirs: readonly string[]): Analysis {
  const notes: string[] = [];
  let configs;
  try {
    configs = loadConfigurations(jobDirs);
  } catch (error) {
    return { notes: [`No comparison: ${(error as Error).message}`], tables: [] };
  }
  const budgets = checkBudgets(configs);
  if (!budgets.equal) notes.push(`Budgets differ (${budgets.differences.map((d) => d.key).join(', ')}): the comparison is shown, marked UNEQUAL; \`aar compare\` refuses it without --allow-unequal.`);
  const tables: DataTable[] = [];
  let legs: string[] | undefined;
  if (configs.length > 1) {
    try {
      const compared = compareConfigurations(configs, { allowUnequal: true });
      tables.push(...compared.tables);
      legs = compared.pairing.sharedLegIds;
    } catch (error) {
      notes.push(`No paired comparison: ${(error as Error).message}`);
    }
  }
  tables.push(...paperTables(configs, { budgets, legs }));
  return { notes, tables };
}

/** The paired comparison and the paper's main table (AAR's Table 11, WikiRace's Table 1) open, the other tables folded. */
const OPEN_TABLES = new Set(['paired', 'table11', 'wikirace-table1']);
/** Paired rows beyond all legs (per variant, level...) are many: the open table shows the whole-job rows first. */
const ROW_LIMIT = 400;

function dataTableHtml(t: DataTable): string {
  const percent = new Set(t.percent);
  const head = t.columns.map((c) => `<th>${esc(percent.has(c) ? `${c} %` : c)}</th>`).join('');
  const rows = t.rows.slice(0, ROW_LIMIT).map((r) => `<tr>${t.columns.map((c) => {
    const v = r[c] ?? null;
    return `<td${typeof v === 'number' ? ' class="num"' : ''}>${esc(typeof v === 'string' ? v : displayCell(t, c, v))}</td>`;
  }).join('')}</tr>`).join('');
  const more = t.rows.length > ROW_LIMIT ? `<p class="note">${t.rows.length - ROW_LIMIT} more rows: <code>aar compare --paper --format csv</code> has them all.</p>` : '';
  const notes = t.notes.map((n) => `<p class="note">${esc(n)}</p>`).join('');
  const body = t.rows.length ? `<div class="scroll"><table class="analysis" data-table="${esc(t.id)}"><thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table></div>${more}` : '<p class="note">(no rows)</p>';
  return `<details class="analysis"${OPEN_TABLES.has(t.id) ? ' open' : ''}><summary>${esc(t.title)}</summary>${notes}${body}</details>`;
}

export function analysisHtml(analysis: Analysis): string {
  if (!analysis.tables.length && !analysis.notes.length) return '';
  return (
    `<section id="analysis"><h2>Comparison and the paper's tables</h2>` +
    `<p class="note">As <code>aar compare --paper</code> computes them (legs as the unit, each pair on its own shared legs, intervals that hold at small n; shares in %).</p>` +
    analysis.notes.map((n) => `<p class="warn">${esc(n)}</p>`).join('') +
    analysis.tables.map(dataTableHtml).join('') +
    `</section>`
  );
}
