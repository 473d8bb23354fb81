import { figure5a, type PaperTrial } from '../../../tasks/aar/paper-tables/index.js';
import { AAR_REPORT, type AarFigures } from '../../../tasks/aar/scoring/report.js';
import type { TrialScore } from '../../../tasks/aar/scoring/score.js';
import { LEVELS } from '../../../tasks/aar/schema.js';
import { aarSliceOf } from '../../../tasks/aar/slices.js';
import type { Estimate } from '../../../common/stats.js';
import type { TrialResult } from '../../results.js';
import type { ChartSpec } from '../view-types.js';
import { configLabel } from '../labels.js';

/**
 * The AAR paper's charts as Vega-Lite specs: FA/PVR/RCR per level and per variant (bars with 95%
 * intervals), Linear vs DAG per configuration, and cost (or, without prices, wall time) against FA with
 * the frontier of configurations no other beats on both.
 */

type Group = (r: TrialResult) => string;

/** The figures of each configuration x group, by the family's own summarize (the report's numbers). */
function figuresBy(results: readonly TrialResult[], group: Group): { agent: string; group: string; figures: AarFigures }[] {
  const slices = new Map<string, { agent: string; group: string; scores: TrialScore[] }>();
  for (const r of results) {
    if (!r.score) continue;
    const agent = configLabel(r.record.agent.id, r.record.agent.model);
    const key = `${agent}\u0000${group(r)}`;
    const slice = slices.get(key) ?? { agent, group: group(r), scores: [] };
    slice.scores.push(r.score as TrialScore);
    slices.set(key, slice);
  }
  return [...slices.values()].map((s) => ({ agent: s.agent, group: s.group, figures: AAR_REPORT.summarize(s.scores) }));
}

const METRICS = [['FA', 'fa'], ['PVR', 'pvr'], ['RCR', 'rcr']] as const;

function metricRows(slices: ReturnType<typeof figuresBy>): Record<string, unknown>[] {
  return slices.flatMap((s) =>
    METRICS.flatMap(([metric, key]) => {
      const e: Estimate = s.figures[key];
      return e.mean === null ? [] : [{ agent: s.agent, group: s.group, metric, mean: e.mean, lo: e.lo, hi: e.hi, n: e.n }];
    }),
  );
}

const percentAxis = { format: '%', title: null, grid: true };

function barsByGroup(values: Record<string, unknown>[], groupTitle: string, order: readonly string[]): Record<string, unknown> {
  const x = { field: 'group', type: 'nominal', title: groupTitle, sort: order, axis: { labelAngle: 0 } };
  return {
    data: { values },
    facet: { column: { field: 'metric', type: 'nominal', title: null, sort: ['FA', 'PVR', 'RCR'], header: { labelFontSize: 13, labelFontWeight: 'bold' } } },
    spec: {
      width: 230,
      height: 170,
      encoding: { x, xOffset: { field: 'agent' } },
      layer: [
        {
          mark: { type: 'bar', cornerRadiusEnd: 2 },
          encoding: {
            color: { field: 'agent', type: 'nominal', title: 'configuration' },
            y: { field: 'mean', type: 'quantitative', scale: { domain: [0, 1] }, axis: percentAxis },
            tooltip: [{ field: 'agent' }, { field: 'group' }, { field: 'mean', format: '.1%' }, { field: 'n' }],
          },
        },
        { mark: { type: 'rule', color: '#222', strokeWidth: 1.5 }, encoding: { y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } } },
        // The mean above its interval (a bar at 0% is otherwise invisible).
        { mark: { type: 'text', dy: -6, fontSize: 9, color: '#333' }, encoding: { y: { field: 'hi', type: 'quantitative' }, text: { field: 'mean', format: '.0%' } } },
      ],
    },
  };
}

const structureOf = (variant: string): string => (/dag/i.test(variant) ? 'DAG' : 'Linear');

function linearVsDag(results: readonly TrialResult[]): ChartSpec | null {
  const slices = figuresBy(results, (r) => structureOf(aarSliceOf(r).variant));
  if (new Set(slices.map((s) => s.group)).size < 2) return null;
  const values = slices.filter((s) => s.figures.fa.mean !== null).map((s) => ({ agent: s.agent, structure: s.group, fa: s.figures.fa.mean, lo: s.figures.fa.lo, hi: s.figures.fa.hi }));
  const x = { field: 'structure', type: 'nominal', sort: ['Linear', 'DAG'], title: null, axis: { labelAngle: 0 }, scale: { padding: 0.4 } };
  const color = { field: 'agent', type: 'nominal', title: 'configuration' };
  return {
    title: 'Linear → DAG',
    note: 'FA of each configuration on linear legs and on DAG legs (the paper\'s Figure 6), with 95% intervals.',
    spec: {
      data: { values },
      width: 260,
      height: 200,
      encoding: { x, color },
      layer: [
        { mark: { type: 'line', strokeWidth: 2 }, encoding: { y: { field: 'fa', type: 'quantitative', scale: { domain: [0, 1] }, axis: percentAxis } } },
        { mark: { type: 'rule', strokeWidth: 1.5 }, encoding: { y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } } },
        { mark: { type: 'point', filled: true, size: 70 }, encoding: { y: { field: 'fa', type: 'quantitative' }, tooltip: [{ field: 'agent' }, { field: 'structure' }, { field: 'fa', format: '.1%' }] } },
      ],
    },
  };
}

/** The paper's Figure 5a: each configuration's FA, PVR and RCR over all legs, its variants weighted by their legs (the --paper table's numbers). */
function allLegsWeighted(results: readonly TrialResult[]): ChartSpec | null {
  const scored = results.filter((r) => r.score !== null);
  if (new Set(scored.map((r) => aarSliceOf(r).variant)).size < 2) return null;
  const configs = new Map<string, PaperTrial[]>();
  for (const r of scored) {
    const config = configLabel(r.record.agent.id, r.record.agent.model);
    configs.set(config, [...(configs.get(config) ?? []), { config, dir: r.dir, record: r.record, score: r.score as TrialScore }]);
  }
  const table = figure5a([...configs]);
  const values = table.rows.filter((row) => row.weighted !== null).map((row) => ({ agent: row.config, metric: row.metric, weighted: row.weighted, legs: row.legs, linear: row.linear, dag: row.dag }));
  if (!values.length) return null;
  return {
    title: 'All legs (Figure 5a)',
    note: "FA, PVR and RCR over all legs as the paper's Figure 5a weights them: each variant's mean weighted by its number of legs (the Figure 5a table of `aar compare --paper` has them with n).",
    spec: {
      data: { values },
      width: 320,
      height: 200,
      encoding: { x: { field: 'metric', type: 'nominal', sort: ['FA', 'PVR', 'RCR'], title: null, axis: { labelAngle: 0 } }, xOffset: { field: 'agent' } },
      layer: [
        {
          mark: { type: 'bar', cornerRadiusEnd: 2 },
          encoding: {
            color: { field: 'agent', type: 'nominal', title: 'configuration' },
            y: { field: 'weighted', type: 'quantitative', scale: { domain: [0, 1] }, axis: percentAxis },
            tooltip: [{ field: 'agent' }, { field: 'metric' }, { field: 'weighted', format: '.1%' }, { field: 'linear', format: '.1%' }, { field: 'dag', format: '.1%' }, { field: 'legs' }],
          },
        },
        { mark: { type: 'text', dy: -6, fontSize: 9, color: '#333' }, encoding: { y: { field: 'weighted', type: 'quantitative' }, text: { field: 'weighted', format: '.1%' } } },
      ],
    },
  };
}

function costFrontier(results: readonly TrialResult[]): ChartSpec | null {
  const slices = figuresBy(results, () => '*').filter((s) => s.figures.fa.mean !== null);
  if (!slices.length) return null;
  const priced = slices.every((s) => s.figures.cost_usd !== null);
  const xOf = (f: AarFigures): number | null => (priced ? f.cost_usd : f.wall_s);
  const points = slices.filter((s) => xOf(s.figures) !== null).map((s) => ({ agent: s.agent, x: xOf(s.figures) as number, fa: s.figures.fa.mean as number, lo: s.figures.fa.lo, hi: s.figures.fa.hi }));
  if (!points.length) return null;
  // On the frontier: no other configuration is at most as costly and strictly more accurate, or cheaper and as accurate.
  const values = points.map((p) => ({
    ...p,
    frontier: !points.some((q) => q !== p && q.x <= p.x && q.fa >= p.fa && (q.x < p.x || q.fa > p.fa)),
  }));
  const xTitle = priced ? 'mean cost per trial (USD)' : 'mean agent wall time per trial (s), no prices known';
  return {
    title: priced ? 'Cost vs FA' : 'Time vs FA',
    note: `Each configuration's FA against its ${priced ? 'mean cost' : 'mean wall time (no configuration has a price)'} per trial, with its 95% interval; the line joins the frontier of point estimates (configurations no other beats on both), not a claim of significance: the comparison's frontier table marks dominance only where the paired test is significant.`,
    spec: {
      data: { values },
      width: 320,
      height: 220,
      encoding: { x: { field: 'x', type: 'quantitative', title: xTitle, scale: { zero: true, nice: true } }, color: { field: 'agent', type: 'nominal', title: 'configuration' } },
      layer: [
        { transform: [{ filter: 'datum.frontier' }], mark: { type: 'line', color: '#888', strokeDash: [4, 3] }, encoding: { y: { field: 'fa', type: 'quantitative' }, color: { value: '#888' }, order: { field: 'x' } } },
        { mark: { type: 'rule' }, encoding: { y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' } } },
        { mark: { type: 'point', filled: true, size: 90 }, encoding: { y: { field: 'fa', type: 'quantitative', title: 'FA', scale: { domain: [0, 1] }, axis: { format: '%' } }, tooltip: [{ field: 'agent' }, { field: 'x', title: xTitle }, { field: 'fa', format: '.1%' }] } },
        { mark: { type: 'text', align: 'left', dx: 8, dy: -6, fontSize: 11 }, encoding: { y: { field: 'fa', type: 'quantitative' }, text: { field: 'agent' } } },
      ],
    },
  };
}

export function aarCharts(results: readonly TrialResult[]): ChartSpec[] {
  const charts: ChartSpec[] = [];
  const byLevel = metricRows(figuresBy(results, (r) => aarSliceOf(r).level));
  if (byLevel.length) {
    charts.push({ title: 'FA, PVR and RCR per level', note: 'All variants together; bars are means, lines their 95% intervals (Wilson for FA).', spec: barsByGroup(byLevel, 'level', LEVELS) });
  }
  const byVariant = metricRows(figuresBy(results, (r) => aarSliceOf(r).variant));
  if (new Set(byVariant.map((v) => v.group)).size > 1) {
    charts.push({ title: 'FA, PVR and RCR per variant', note: 'All levels together, with 95% intervals.', spec: barsByGroup(byVariant, 'variant', []) });
  }
  for (const chart of [allLegsWeighted(results), linearVsDag(results), costFrontier(results)]) if (chart) charts.push(chart);
  return charts;
}
