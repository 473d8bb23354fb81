import type { TaskFamily } from '../../tasks/family.js';
import type { AggregateRow } from '../aggregate.js';
import type { TrialResult } from '../results.js';
import { aarHtmlView } from './aar/view.js';
import { columns, type Cell, type Column, type DetailTable } from './model.js';

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
}

/**
 * How the HTML report shows a task family: its trials-table columns, its overview figures and charts, and
 * what its trial pages add. Families without a view get the generic one (the family's report columns).
 */
export interface HtmlFamilyView {
  readonly columns: Column[];
  cells(score: object | null): Record<string, Cell>;
  headline(row: AggregateRow): Headline[];
  charts(results: readonly TrialResult[], rows: readonly AggregateRow[]): ChartSpec[];
  trialPage(trial: TrialResult, toolLogLines: readonly string[]): FamilyTrialPage;
}

/** The generic view: the family's Markdown columns as headline figures, its progress label per trial. */
export function genericHtmlView(family: TaskFamily<any, any, any>): HtmlFamilyView {
  const { label } = family.progress;
  return {
    columns: columns(['success', label, 'pct'], ['verdict', 'verdict', 'text']),
    cells: (score) => (score ? { success: family.progress.success(score), verdict: family.progress.verdict(score) } : { success: null, verdict: null }),
    headline(row) {
      const cells = family.report.markdownCells(row);
      return family.report.markdownHeader.slice(0, 4).map((h, i) => ({ key: h, label: h, value: cells[i], mean: null }));
    },
    charts: () => [],
    trialPage: () => ({ tables: [], callNotes: [] }),
  };
}

const VIEWS: ReadonlyMap<string, HtmlFamilyView> = new Map([['aar', aarHtmlView]]);

export function htmlViewOf(family: TaskFamily<any, any, any>): HtmlFamilyView {
  return VIEWS.get(family.name) ?? genericHtmlView(family);
}
