import type { DataTable } from '../../../common/table.js';
import { figure1Table, figure5, figure5Fit, figure8a, figure8b, figure8c, loopTable, table1, type GamesByConfig } from '../../../tasks/wikirace/paper-tables/index.js';
import { figure1FitNote } from '../../../tasks/wikirace/paper-tables/figure1.js';
import { fitLine, type LineFit } from '../../../tasks/wikirace/paper-tables/regression.js';
import { SPLITS } from '../../../tasks/wikirace/schema.js';
import type { GameScore } from '../../../tasks/wikirace/scoring/score.js';
import type { TrialResult } from '../../results.js';
import { configLabel } from '../labels.js';
import type { ChartSpec } from '../view-types.js';

/**
 * The LLM-WikiRace paper's charts as Vega-Lite specs, drawn from the same tables `aar compare --paper`
 * prints (tasks/wikirace/paper-tables/): Table 1's success per split, Figure 1 (probe F1 vs success, when a
 * probe is joined), Figure 5 (success vs loop frequency with the line through the model configurations),
 * Figure 10 (recovery and maximum visitation), Figure 8a (completion by move limit), 8b (by links offered),
 * 8c (extra moves).
 */

const percentAxis = { format: '%', title: null, grid: true };
const configColor = { field: 'config', type: 'nominal', title: 'configuration' };

/** The scored games of each configuration (agent x model), in order of appearance. */
function gamesByConfig(results: readonly TrialResult[]): GamesByConfig {
  const byConfig = new Map<string, { config: string; dir: string; record: TrialResult['record']; score: GameScore }[]>();
  for (const r of results) {
    if (!r.score) continue;
    const config = configLabel(r.record.agent.id, r.record.agent.model);
    byConfig.set(config, [...(byConfig.get(config) ?? []), { config, dir: r.dir, record: r.record, score: r.score as GameScore }]);
  }
  return [...byConfig];
}

/** A table's rows as long records: one per row and column of `columns`, its value under `value`. */
const longRows = (t: DataTable, keep: readonly string[], columns: readonly string[], name: string): Record<string, unknown>[] =>
  t.rows.flatMap((r) => columns.filter((c) => r[c] !== null && r[c] !== undefined).map((c) => ({ ...Object.fromEntries(keep.map((k) => [k, r[k]])), [name]: c, value: r[c] })));

/** A bar per configuration within each x group, the share on y (0 to 100%). */
function groupedShareBars(title: string, note: string, width: number, values: readonly object[], x: object, y: string, tooltip: object[]): ChartSpec {
  return {
    title,
    note,
    spec: {
      data: { values }, width, height: 200,
      mark: { type: 'bar', cornerRadiusEnd: 2 },
      encoding: {
        x: { ...x, axis: { labelAngle: 0 } }, xOffset: { field: 'config' }, color: configColor,
        y: { field: y, type: 'quantitative', scale: { domain: [0, 1] }, axis: percentAxis },
        tooltip,
      },
    },
  };
}

function successBySplit(games: GamesByConfig): ChartSpec {
  const values = longRows(table1(games), ['config'], SPLITS.map((s) => `success_${s}`), 'split').map((v) => ({ ...v, split: String(v.split).replace('success_', '') }));
  return groupedShareBars(
    'Success per split (Table 1)',
    'Share of games that reached the target within the move limit, per configuration and split.',
    320,
    values,
    { field: 'split', type: 'nominal', sort: SPLITS, title: null },
    'value',
    [{ field: 'config' }, { field: 'split' }, { field: 'value', format: '.1%' }],
  );
}

function loopRates(games: GamesByConfig): ChartSpec | null {
  const values = figure5(games).rows.map((r) => ({ config: r.config, split: r.split, n: r.n, value: r.loop_rate }));
  if (!values.length) return null;
  return groupedShareBars(
    'Loop rate per split',
    'Share of games in which the agent came back to a page it had already visited, per configuration and split.',
    320,
    values,
    { field: 'split', type: 'nominal', sort: SPLITS, title: null },
    'value',
    [{ field: 'config' }, { field: 'split' }, { field: 'n' }, { field: 'value', format: '.1%' }],
  );
}

/** Every game as a point: its moves against its optimal length (the dashed line: moves = optimal). */
function stepsVsOptimal(games: GamesByConfig): ChartSpec | null {
  const counts = new Map<string, { config: string; optimal: number; moves: number; outcome: string; games: number }>();
  for (const [config, trials] of games) {
    for (const { score } of trials) {
      const outcome = score.success ? 'reached' : 'not reached';
      const k = `${config}\u0000${score.optimal_length}\u0000${score.steps}\u0000${outcome}`;
      const c = counts.get(k) ?? { config, optimal: score.optimal_length, moves: score.steps, outcome, games: 0 };
      c.games++;
      counts.set(k, c);
    }
  }
  const points = [...counts.values()];
  if (!points.length) return null;
  const top = Math.max(...points.map((p) => Math.max(p.moves, p.optimal)));
  const x = { field: 'optimal', type: 'quantitative', title: 'optimal length', scale: { domain: [0, top] } };
  const y = { field: 'moves', type: 'quantitative', title: 'moves made', scale: { domain: [0, top] } };
  return {
    title: 'Moves vs optimal length',
    note: 'One mark per configuration, optimal length, moves and outcome (its size: the games); on the dashed line a game took a shortest path.',
    spec: {
      width: 300, height: 240,
      layer: [
        { data: { values: [{ optimal: 0, moves: 0 }, { optimal: top, moves: top }] }, mark: { type: 'line', color: '#888', strokeDash: [5, 4] }, encoding: { x, y } },
        {
          data: { values: points },
          mark: { type: 'point', filled: true, opacity: 0.75 },
          encoding: {
            x, y, color: configColor, size: { field: 'games', type: 'quantitative', title: 'games', legend: null },
            shape: { field: 'outcome', type: 'nominal', title: null, scale: { domain: ['reached', 'not reached'], range: ['circle', 'cross'] } },
            tooltip: [{ field: 'config' }, { field: 'optimal' }, { field: 'moves' }, { field: 'outcome' }, { field: 'games' }],
          },
        },
      ],
    },
  };
}

const slopeText = (fit: LineFit): string => `slope ${fit.slope.toFixed(2)}${fit.slope_lo === null ? '' : `, 95% interval ${fit.slope_lo.toFixed(2)} to ${fit.slope_hi!.toFixed(2)}`}, n = ${fit.n}`;

/** A scatter of shares in [0, 1] with the dashed least-squares line over x in [0, 1]. */
function scatterWithLine(fit: LineFit | null, points: object[], x: object, y: object, pointEncoding: object): Record<string, unknown> {
  const line = fit ? [0, 1].map((v) => ({ [(x as { field: string }).field]: v, [(y as { field: string }).field]: fit.intercept + fit.slope * v })) : [];
  return {
    width: 320, height: 240,
    layer: [
      { data: { values: line }, mark: { type: 'line', color: '#888', strokeDash: [5, 4], clip: true }, encoding: { x, y } },
      { data: { values: points }, mark: { type: 'point', size: 90 }, encoding: { x, y, ...pointEncoding } },
    ],
  };
}

function loopsVsSuccess(games: GamesByConfig): ChartSpec | null {
  const table = figure5(games);
  const points = table.rows.map((r) => ({ config: r.config, split: r.split, n: r.n, loop_rate: r.loop_rate, success: r.success, fitted: r.fitted }));
  if (!points.length) return null;
  const fit = figure5Fit(table);
  const y = { field: 'success', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '%', title: 'success' } };
  const x = { field: 'loop_rate', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '%', title: 'loop frequency' } };
  const baselines = points.some((p) => p.fitted === 'no');
  return {
    title: 'Success vs loop frequency (Figure 5)',
    note: `One point per configuration and split; dashed: the least-squares line through the model configurations' points${fit ? ` (${slopeText(fit)}; the paper: -1.02)` : ' (too few points)'}${baselines ? '; hollow: baselines, shown but not fitted' : ''}.`,
    spec: scatterWithLine(fit, points, x, y, {
      color: configColor, shape: { field: 'split', type: 'nominal', sort: SPLITS },
      fill: { condition: { test: "datum.fitted === 'yes'", field: 'config', type: 'nominal' }, value: 'transparent' },
      tooltip: [{ field: 'config' }, { field: 'split' }, { field: 'n' }, { field: 'loop_rate', format: '.1%' }, { field: 'success', format: '.1%' }, { field: 'fitted' }],
    }),
  };
}

/** Figure 1: probe F1 against average success, one point per configuration with a joined probe. */
function probeVsSuccess(games: GamesByConfig): ChartSpec | null {
  const table = figure1Table(games);
  const points = table.rows.filter((r) => r.probe_f1 !== null && r.success !== null).map((r) => ({ config: r.config, model: r.model, f1: r.probe_f1, success: r.success, gap: r.gap, answers: r.probe_answers }));
  if (!points.length) return null;
  const fit = fitLine(points.map((p) => ({ x: p.f1 as number, y: p.success as number })));
  const x = { field: 'f1', type: 'quantitative', scale: { domain: [0, 1] }, axis: { title: 'probe F1 (world knowledge)' } };
  const y = { field: 'success', type: 'quantitative', scale: { domain: [0, 1] }, axis: { format: '%', title: 'average success over splits' } };
  return {
    title: 'Probe F1 vs success (Figure 1)',
    note: `One point per model configuration with a probe joined (JOB/probes/); dashed: the least-squares line. ${figure1FitNote(fit)}`,
    spec: scatterWithLine(fit, points, x, y, {
      color: configColor, fill: { field: 'config', type: 'nominal' },
      tooltip: [{ field: 'config' }, { field: 'model' }, { field: 'f1', format: '.3f' }, { field: 'answers' }, { field: 'success', format: '.1%' }, { field: 'gap', format: '+.1%' }],
    }),
  };
}

/** Figure 10: recovery rate and average maximum visitation per configuration and split (appendix D). */
function recoveryAndVisits(games: GamesByConfig): ChartSpec | null {
  const rows = loopTable(games).rows.filter((r) => r.split !== 'all');
  if (!rows.length) return null;
  const bars = (field: string, title: string, scale: object, format: string) => ({
    width: 260, height: 180,
    mark: { type: 'bar', cornerRadiusEnd: 2 },
    encoding: {
      x: { field: 'split', type: 'nominal', sort: SPLITS, title: null, axis: { labelAngle: 0 } }, xOffset: { field: 'config' }, color: configColor,
      y: { field, type: 'quantitative', title, scale, ...(format === '%' ? { axis: percentAxis } : {}) },
      tooltip: [{ field: 'config' }, { field: 'split' }, { field: 'n' }, { field: 'loop_rate', format: '.1%' }, { field, format: format === '%' ? '.1%' : '.2f' }],
    },
  });
  return {
    title: 'Recovery and maximum visitation (Figure 10)',
    note: 'Left: the share of looping games that still reached the target (no bar: no game looped). Right: the mean over games of the most visits of one page (1: no page twice).',
    spec: { data: { values: rows }, hconcat: [bars('recovery_rate', 'recovery rate', { domain: [0, 1] }, '%'), bars('max_visits', 'average maximum visitation', { zero: true }, 'x')] },
  };
}

function completionByLimit(games: GamesByConfig): ChartSpec | null {
  const t = figure8a(games);
  const limits = t.columns.filter((c) => /^T\d+$/.test(c));
  const values = longRows(t, ['config', 'optimal_length', 'n'], limits, 'T').map((v) => ({ ...v, T: Number(String(v.T).slice(1)) }));
  if (!values.length) return null;
  return {
    title: 'Completion by move limit (Figure 8a)',
    note: 'Share of games that reached the target within T moves, by optimal path length, from the moves each game made.',
    spec: {
      data: { values },
      facet: { column: { field: 'config', type: 'nominal', title: null } },
      spec: {
        width: 240, height: 180,
        mark: { type: 'line', point: true },
        encoding: {
          x: { field: 'T', type: 'quantitative', title: 'move limit T' }, y: { field: 'value', type: 'quantitative', scale: { domain: [0, 1] }, axis: percentAxis },
          color: { field: 'optimal_length', type: 'ordinal', title: 'optimal length' },
          tooltip: [{ field: 'optimal_length' }, { field: 'T' }, { field: 'value', format: '.1%' }, { field: 'n' }],
        },
      },
    },
  };
}

function successByLinks(games: GamesByConfig): ChartSpec | null {
  const values = figure8b(games).rows;
  if (!values.length) return null;
  return groupedShareBars(
    'Success vs links offered (Figure 8b)',
    'Success within 30 moves on pairs of optimal length 3 and 4, by the links a step offers (the task\'s max_links).',
    260,
    values,
    { field: 'links', type: 'ordinal', title: 'links offered per step' },
    'success_at_30',
    [{ field: 'config' }, { field: 'links' }, { field: 'n' }, { field: 'success_at_30', format: '.1%' }],
  );
}

function extraMoves(games: GamesByConfig): ChartSpec | null {
  const values = figure8c(games).rows.filter((r) => r.extra_steps !== null);
  if (!values.length) return null;
  return {
    title: 'Extra moves by optimal length (Figure 8c)',
    note: 'Mean moves beyond the shortest path over successful games, by optimal path length.',
    spec: {
      data: { values }, width: 260, height: 200,
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'optimal_length', type: 'ordinal', title: 'optimal length', axis: { labelAngle: 0 } }, color: configColor,
        y: { field: 'extra_steps', type: 'quantitative', title: 'extra moves' },
        tooltip: [{ field: 'config' }, { field: 'optimal_length' }, { field: 'successes' }, { field: 'extra_steps', format: '.2f' }],
      },
    },
  };
}

export function wikiraceCharts(results: readonly TrialResult[]): ChartSpec[] {
  const games = gamesByConfig(results);
  if (!games.length) return [];
  return [successBySplit(games), probeVsSuccess(games), stepsVsOptimal(games), loopRates(games), loopsVsSuccess(games), recoveryAndVisits(games), completionByLimit(games), successByLinks(games), extraMoves(games)].filter((c): c is ChartSpec => c !== null);
}
