import { taskFamily } from '../tasks/registry.js';
import type { AggregateRow } from './aggregate.js';

export const REPORT_FORMATS = ['md', 'csv', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** The columns of the rows' task family (AAR when there are no rows). */
const reportOf = (rows: readonly AggregateRow<object>[]) => taskFamily(rows[0]?.family).report;
/** The slice columns' names: the family's (AAR: variant, level). */
const sliceKeysOf = (family: string | undefined) => taskFamily(family).sliceKeys;

/** The Markdown table printed by `aar report`: the slice, then the family's columns. */
export function toMarkdown(rows: readonly AggregateRow<object>[]): string {
  const report = reportOf(rows);
  const header = ['agent', 'model', ...sliceKeysOf(rows[0]?.family), 'n', ...report.markdownHeader];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const r of rows) lines.push(`| ${[r.agent, r.model, r.variant, r.level, String(r.n), ...report.markdownCells(r)].join(' | ')} |`);
  return lines.join('\n') + '\n';
}

/** One flat record per row: the shape of both the CSV and the JSON output. */
export function flatten(r: AggregateRow<object>): Record<string, string | number | null> {
  const [coarse, fine] = sliceKeysOf(r.family);
  return {
    agent: r.agent, model: r.model, [coarse]: r.variant, [fine]: r.level, trials: r.trials, n: r.n, infra_errors: r.infra_errors,
    ...taskFamily(r.family).report.flatten(r),
  };
}

const csvCell = (v: string | number | null): string => {
  if (v === null) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function toCsv(rows: readonly AggregateRow<object>[]): string {
  const records = rows.map(flatten);
  if (!records.length) return '';
  const keys = Object.keys(records[0]);
  return [keys.join(','), ...records.map((rec) => keys.map((k) => csvCell(rec[k])).join(','))].join('\n') + '\n';
}

export function toJson(rows: readonly AggregateRow<object>[]): string {
  return JSON.stringify(rows.map(flatten), null, 2) + '\n';
}

export function renderReport(rows: readonly AggregateRow<object>[], format: ReportFormat): string {
  return format === 'csv' ? toCsv(rows) : format === 'json' ? toJson(rows) : toMarkdown(rows);
}
