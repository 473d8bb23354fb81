import path from 'node:path';
import type { Cell, DataTable } from '../../../common/table.js';
import type { PaperTrial } from '../../family.js';
import { SPLITS } from '../schema.js';
import { WIKIRACE_REPORT } from '../scoring/report.js';
import type { GameScore } from '../scoring/score.js';
import { findProbes, PROBES_DIR, probeOf } from './probes.js';
import { fitLine, type LineFit } from './regression.js';

type GamesByConfig = readonly [string, readonly PaperTrial<GameScore>[]][];

/** The mean of the split success rates present: the paper's "average success rate on all splits" (section 5.1). */
function meanSplitSuccess(games: readonly PaperTrial<GameScore>[]): number | null {
  const rates = SPLITS.map((s) => games.filter((g) => g.score.split === s)).filter((gs) => gs.length).map((gs) => WIKIRACE_REPORT.summarize(gs.map((g) => g.score)).success.mean!);
  return rates.length ? rates.reduce((a, b) => a + b, 0) / rates.length : null;
}

const fmt = (v: number | null): string => (v === null ? '-' : v.toFixed(3));

/** The Figure 1 line's note: the fit, its slope interval and n, or why there is none. */
export function figure1FitNote(fit: LineFit | null): string {
  return fit
    ? `Least-squares line over the ${fit.n} configurations with a probe: success = ${fmt(fit.intercept)} + ${fmt(fit.slope)} x F1; slope 95% interval ${fit.slope_lo === null ? 'undefined (2 points)' : `[${fmt(fit.slope_lo)}, ${fmt(fit.slope_hi)}]`} (Student's t, ${fit.n - 2} df). gap = success - the line's value: the planning gap of section 5.1 (the paper fits its line on its open-source Instruct models only; here on every configuration with a probe).`
    : 'No line: fewer than 2 configurations with a probe, or all with the same F1.';
}

/**
 * Figure 1 (section 5.1): each model configuration's world-knowledge probe F1 (appendix C) against its
 * average success over the splits, and the least-squares line through them. A probe joins a configuration
 * when it lies under one of the configurations' job folders (`<job>/probes/<name>/summary.json`), asked the
 * configuration's model (trial.json's agent.model) and was drawn on the games' graph (graph_sha256).
 */
export function figure1(configs: GamesByConfig, graphOf: (game: PaperTrial<GameScore>) => string): DataTable {
  const jobDirs = configs.flatMap(([, games]) => games.map((g) => path.dirname(g.dir)));
  const { probes, problems } = findProbes(jobDirs);
  const rows: Record<string, Cell>[] = [];
  const without: string[] = [];
  for (const [config, games] of configs) {
    if (!games.length) continue;
    const model = games[0]!.record.agent.model;
    const { probe, problem } = probeOf(probes, model, new Set(games.map(graphOf)));
    if (problem) problems.push(`${config}: ${problem}`);
    if (!probe) {
      without.push(model === null ? `${config} (no model)` : config);
      continue;
    }
    const s = probe.summary;
    rows.push({
      config, model, probe: path.relative(path.dirname(path.dirname(probe.dir)), probe.dir) || probe.dir,
      probe_f1: s.f1, probe_precision: s.precision, probe_recall: s.recall, probe_answers: s.asked - s.unparsed - s.failed,
      success: meanSplitSuccess(games), n: games.length,
    });
  }
  const points = rows.filter((r) => r.probe_f1 !== null && r.success !== null);
  const fit = fitLine(points.map((r) => ({ x: r.probe_f1 as number, y: r.success as number })));
  for (const r of rows) {
    const fitted = fit && r.probe_f1 !== null ? fit.intercept + fit.slope * (r.probe_f1 as number) : null;
    r.fitted = fitted;
    r.gap = fitted === null || r.success === null ? null : (r.success as number) - fitted;
  }
  return {
    id: 'wikirace-figure1', title: 'Figure 1: world-knowledge probe F1 vs average success (the planning gap)',
    columns: ['config', 'model', 'probe', 'probe_f1', 'probe_precision', 'probe_recall', 'probe_answers', 'success', 'n', 'fitted', 'gap'], rows,
    percent: ['success', 'fitted', 'gap'],
    notes: [
      figure1FitNote(fit),
      `success: the mean of the configuration's success rates per split (the paper's average over its splits); n: its games. probe_f1, precision, recall: linked pairs as the positive class, over probe_answers parsed answers (aar wikirace probe). A probe joins a configuration when it lies in one of the jobs' ${PROBES_DIR}/ folders (aar wikirace probe GRAPH --model M --out JOB/${PROBES_DIR}/NAME, or a link to a probe folder), asked the configuration's model and was drawn on its games' graph.`,
      ...(without.length ? [`No probe joined: ${without.join(', ')}.`] : []),
      ...problems,
    ],
  };
}
