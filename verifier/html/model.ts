/**
 * The data an HTML report embeds, as the page's script reads it. The overview and the charts are rendered
 * on the host; the trials table and the trial pages are drawn in the browser from this JSON.
 */

/** A cell of a table the page draws: a number (shown with `format`), a text, or nothing. */
export type Cell = string | number | boolean | null;

/** How a column's numbers are shown: pct = a share as a percentage, usd = dollars, num = as is. */
export type ColumnFormat = 'text' | 'pct' | 'num' | 'usd' | 'int';

export interface Column {
  key: string;
  label: string;
  format: ColumnFormat;
}

/** Columns from [key, label, format] triples. */
export const columns = (...specs: [key: string, label: string, format: ColumnFormat][]): Column[] => specs.map(([key, label, format]) => ({ key, label, format }));

/** A titled table of a trial page (the golden trace, the tool calls, the model turns...). */
export interface DetailTable {
  title: string;
  /** One sentence under the title: what the table shows and how to read it. */
  note?: string;
  columns: Column[];
  rows: Record<string, Cell>[];
  /** Row classes, by row index: `ok`, `miss`, `partial`, `muted`. */
  marks?: (string | null)[];
}

/** One row of the trials table; `cells` holds the family's columns (AAR: FA, PVR, RCR, diagnosis...). */
export interface TrialRow {
  id: string;
  agent: string;
  task: string;
  variant: string;
  level: string;
  attempt: number;
  status: string;
  cells: Record<string, Cell>;
}

/** Everything a trial page shows, beyond its row. */
export interface TrialDetail {
  id: string;
  job: string;
  dir: string;
  instruction: string | null;
  answer: string | null;
  error: string | null;
  /** The score as score.json holds it, or null for an infrastructure error. */
  score: Record<string, unknown> | null;
  /** A short verdict line from the family (e.g. `incorrect (navigation)`). */
  verdict: string | null;
  /** Run facts and timings as key/value pairs. */
  facts: [string, Cell][];
  /** The family's tables first (AAR: the golden trace), then the tool calls and the model turns. */
  tables: DetailTable[];
  /** The end of the agent's own output (agent/stdout.log), when there is one. */
  agentOutput: string | null;
}

export interface ReportData {
  title: string;
  generatedAt: string;
  jobs: string[];
  family: string;
  /** The trials table's columns after the fixed ones (agent, task, level, status). */
  columns: Column[];
  rows: TrialRow[];
}
