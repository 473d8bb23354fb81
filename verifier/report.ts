import type { AggregateRow } from './aggregate.js';
import type { Estimate } from './stats.js';

export const REPORT_FORMATS = ['md', 'csv', 'json'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

const pct = (v: number | null): string => (v === null ? '-' : `${(100 * v).toFixed(1)}`);
const num = (v: number | null, digits = 1): string => (v === null ? '-' : v.toFixed(digits));
const withInterval = (e: Estimate): string => (e.mean === null ? '-' : `${pct(e.mean)} [${pct(e.lo)}, ${pct(e.hi)}]`);

/** The Markdown table printed by `aar report`: percentages with 95% intervals in brackets. */
export function toMarkdown(rows: readonly AggregateRow[]): string {
  const header = [
    'agent', 'model', 'variant', 'level', 'n', 'FA %', 'PVR %', 'RCR %', 'steps', 'tool calls', 'step limit %',
    'timeouts %', 'infra', 'nav / tool / comp %',
  ];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const r of rows) {
    const d = r.diagnosis;
    lines.push(
      `| ${[
        r.agent, r.model, r.variant, r.level, String(r.n), withInterval(r.fa), withInterval(r.pvr), withInterval(r.rcr),
        num(r.steps), num(r.tool_calls), pct(r.step_limit_rate), pct(r.timeout_rate), String(r.infra_errors),
        `${pct(d.navigation)} / ${pct(d.tool_use)} / ${pct(d.computation)}`,
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n') + '\n';
}

/** One flat record per row: the shape of both the CSV and the JSON output. */
export function flatten(r: AggregateRow): Record<string, string | number | null> {
  return {
    agent: r.agent, model: r.model, variant: r.variant, level: r.level, trials: r.trials, n: r.n, infra_errors: r.infra_errors,
    fa: r.fa.mean, fa_lo: r.fa.lo, fa_hi: r.fa.hi,
    pvr: r.pvr.mean, pvr_lo: r.pvr.lo, pvr_hi: r.pvr.hi, pvr_n: r.pvr.n,
    rcr: r.rcr.mean, rcr_lo: r.rcr.lo, rcr_hi: r.rcr.hi, rcr_n: r.rcr.n,
    intermediate_rate: r.intermediate_rate, steps: r.steps, tool_calls: r.tool_calls,
    input_tokens: r.input_tokens, output_tokens: r.output_tokens, cost_usd: r.cost_usd, wall_s: r.wall_s,
    step_limit_rate: r.step_limit_rate, timeout_rate: r.timeout_rate,
    diag_navigation: r.diagnosis.navigation, diag_tool_use: r.diagnosis.tool_use, diag_computation: r.diagnosis.computation,
    shortcuts: r.shortcuts, near_misses: r.near_misses,
  };
}

const csvCell = (v: string | number | null): string => {
  if (v === null) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

export function toCsv(rows: readonly AggregateRow[]): string {
  const records = rows.map(flatten);
  if (!records.length) return '';
  const keys = Object.keys(records[0]);
  return [keys.join(','), ...records.map((rec) => keys.map((k) => csvCell(rec[k])).join(','))].join('\n') + '\n';
}

export function toJson(rows: readonly AggregateRow[]): string {
  return JSON.stringify(rows.map(flatten), null, 2) + '\n';
}

export function renderReport(rows: readonly AggregateRow[], format: ReportFormat): string {
  return format === 'csv' ? toCsv(rows) : format === 'json' ? toJson(rows) : toMarkdown(rows);
}
