import type { AggregateRow } from '../aggregate.js';
import type { TrialResult } from '../results.js';
import type { Cell, Column, DetailTable } from './model.js';

/** A headline figure of an agent's overview card: its value and, when it has one, its 95% interval. */
export interface Headline {
  key: string;
  label: string;
  value: string;
  interval?: string;
  /** The number behind `value` (a share in [0, 1] for percentages), for tests and sorting. */
  mean: number | null;
}

/** A chart of the overview: a Vega-Lite spec, compiled and rendered to SVG on the host. */
export interface ChartSpec {
  title: string;
  note: string;
  spec: Record<string, unknown>;
}

/** What a trial page of this family adds: its own tables (first) and one note per tool-log line. */
export interface FamilyTrialPage {
  tables: DetailTable[];
  callNotes: (string | null)[];
  /** The golden stops each tool-log line served (the conversation links a call to its stops' rows, `stop-<n>`). */
  callStops?: number[][];
  /** Drawings made on the host (SVG, every text in it escaped). */
  figures?: { title: string; note: string; svg: string }[];
}

/**
 * How the HTML report shows a task family: its trials-table columns, its overview figures and charts, and
 * what its trial pages add. A family's view is verifier/html/<family>/view.ts, exporting `htmlView` (family-view.ts finds it).
 */
export interface HtmlFamilyView {
  readonly columns: Column[];
  cells(score: object | null): Record<string, Cell>;
  headline(row: AggregateRow): Headline[];
  charts(results: readonly TrialResult[], rows: readonly AggregateRow[]): ChartSpec[];
  trialPage(trial: TrialResult, toolLogLines: readonly string[]): FamilyTrialPage | Promise<FamilyTrialPage>;
}
