/**
 * The one shape of every analysis table (comparisons, the paper's views): rows of raw values under named
 * columns, so the Markdown, CSV and JSON outputs and the HTML report draw any table the same way.
 */
export type Cell = string | number | null;

export interface DataTable {
  id: string;
  title: string;
  /** Keys of each row, in display order. */
  columns: string[];
  /** Numbers are raw (0.372, not "37.2%"); null is "not defined". */
  rows: Record<string, Cell>[];
  notes: string[];
  /** Columns holding shares in [0, 1] (FA, PVR, RCR, rates, their differences): Markdown shows them as %. */
  percent: string[];
  /** Columns holding p-values: Markdown prints them one way (3 decimals, `<0.001` below). */
  pvalues?: string[];
  /** The reducer a paper view applied to each leg's success (compare's --reduce); absent: the view averages attempts whatever was asked. */
  reducedBy?: string;
}

/** A p-value as every table prints it. */
export function formatP(p: number): string {
  return p < 0.001 ? '<0.001' : p.toFixed(3);
}

/** One value as the Markdown tables show it (shares as percentages with one decimal when percent). */
export function markdownCell(percent: boolean, value: Cell): string {
  if (value === null) return '-';
  if (typeof value === 'string') return value.replace(/\|/g, '\\|');
  if (percent) return (100 * value).toFixed(1);
  if (Number.isInteger(value)) return String(value);
  if (value !== 0 && Math.abs(value) < 0.001) return value.toExponential(1);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(Math.abs(value) < 1 ? 3 : 1);
}

/** A cell of a table as people read it (Markdown, HTML): shares as %, p-values one way. */
export function displayCell(t: DataTable, column: string, value: Cell): string {
  if (typeof value === 'number' && t.pvalues?.includes(column)) return formatP(value);
  return markdownCell(t.percent.includes(column), value);
}

/** A Markdown table with a heading and its notes; the percent columns as percentages (header marked %). */
export function tableToMarkdown(t: DataTable): string {
  const lines = [`### ${t.title}`, ''];
  for (const note of t.notes) lines.push(`> ${note}`, '');
  if (!t.rows.length) return [...lines, '(no rows)', ''].join('\n');
  const percent = new Set(t.percent);
  lines.push(`| ${t.columns.map((c) => (percent.has(c) ? `${c} %` : c)).join(' | ')} |`, `|${t.columns.map(() => '---').join('|')}|`);
  for (const row of t.rows) lines.push(`| ${t.columns.map((c) => displayCell(t, c, row[c] ?? null)).join(' | ')} |`);
  return lines.join('\n') + '\n';
}

const csvCell = (v: Cell): string => {
  if (v === null) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** RFC 4180 CSV of the rows, raw values; notes are not part of it (renderers put them on `# note:` lines before). */
export function tableToCsv(t: DataTable): string {
  return [t.columns.join(','), ...t.rows.map((r) => t.columns.map((c) => csvCell(r[c] ?? null)).join(','))].join('\n') + '\n';
}

/** The notes of a table as CSV comment lines (`# note: ...`), one per note, before its header row. */
export function csvNoteLines(t: DataTable): string {
  return t.notes.map((n) => `# note: ${n.replace(/\n/g, ' ')}\n`).join('');
}
