import { readFileSync } from 'node:fs';
import path from 'node:path';
import { meanOf } from '../../../common/stats.js';
import type { Cell, DataTable } from '../../../common/table.js';
import { TRIAL_FILES } from '../../../trial/folder.js';
import { agentUsesModel } from '../../../trial/record.js';
import type { PaperTrial } from '../../family.js';
import { linkLimitOf, SPLITS, WikiraceTaskSchema, type WikiraceTask } from '../schema.js';
import { WIKIRACE_REPORT } from '../scoring/report.js';
import type { GameScore } from '../scoring/score.js';
import { figure1 } from './figure1.js';
import { fitLine } from './regression.js';

/** Each configuration's scored games, in configuration order. */
export type GamesByConfig = readonly [string, readonly PaperTrial<GameScore>[]][];

const share = (part: number, whole: number): number | null => (whole ? part / whole : null);
const summarize = (games: readonly PaperTrial<GameScore>[]) => WIKIRACE_REPORT.summarize(games.map((g) => g.score));
const inSplit = (games: readonly PaperTrial<GameScore>[], split: string) => games.filter((g) => g.score.split === split);
/** The optimal lengths present, in order (the paper's are 3 to 8). */
const lengthsOf = (configs: GamesByConfig): number[] => [...new Set(configs.flatMap(([, gs]) => gs.map((g) => g.score.optimal_length)))].sort((a, b) => a - b);

/** A game's task as stored in its trial folder (leg.json), read once per folder. */
const tasks = new Map<string, WikiraceTask>();
function taskOf(game: PaperTrial<GameScore>): WikiraceTask {
  let task = tasks.get(game.dir);
  if (!task) {
    task = WikiraceTaskSchema.parse(JSON.parse(readFileSync(path.join(game.dir, TRIAL_FILES.leg), 'utf8')));
    tasks.set(game.dir, task);
  }
  return task;
}

/**
 * Whether a configuration's games count as a model's in the paper's regressions: not the oracle's or the
 * random baseline's, nor any agent whose model the harness did not see (trial.json's agent.uses_model false).
 */
export const isModelConfig = (games: readonly PaperTrial<GameScore>[]): boolean => games.length > 0 && agentUsesModel(games[0]!.record) !== false;

/** Table 1: success per split, suboptimal steps per split (successful games only), tokens and cost per step (model call). */
export function table1(configs: GamesByConfig): DataTable {
  const rows = configs.map(([config, games]) => {
    const row: Record<string, Cell> = { config };
    for (const split of SPLITS) {
      const f = summarize(inSplit(games, split));
      row[`success_${split}`] = f.success.mean;
      row[`suboptimal_${split}`] = f.suboptimal_steps;
      row[`n_${split}`] = inSplit(games, split).length;
    }
    const all = summarize(games);
    row.tokens_per_step = all.tokens_per_step;
    row.generated_tokens_per_step = all.output_tokens_per_step;
    row.cost_cents_per_step = all.cost_per_step === null ? null : 100 * all.cost_per_step;
    return row;
  });
  return {
    id: 'wikirace-table1', title: 'Table 1: success rate (%), suboptimal steps and usage per step, per split',
    columns: ['config', ...SPLITS.map((s) => `success_${s}`), ...SPLITS.map((s) => `suboptimal_${s}`), 'tokens_per_step', 'generated_tokens_per_step', 'cost_cents_per_step', ...SPLITS.map((s) => `n_${s}`)],
    rows, percent: SPLITS.map((s) => `success_${s}`),
    notes: [
      'success: games that reached the target within the move limit (30 unless the task says otherwise). suboptimal: mean moves beyond the shortest path over successful games; "-" where none succeeded (the paper\'s N/A).',
      "Per step = per model call (the paper's protocol makes one call per step; a reply asked again is a call of its own, not added to a move), averaged over games with a call (all splits): tokens_per_step prompt + completion, generated_tokens_per_step completion alone, cost_cents_per_step the cost. The paper's text counts tokens generated, but its Table 1 costs fit prompt + completion (Sonnet 4.5's 1,242 tokens at $15 per million generated alone would cost 1.86 cents a step; it reports 1.31), so both are shown. '-' for agents without a model.",
    ],
  };
}

/** Appendix D and section 5.2: loop frequency, recovery, average maximum visitation, loop-free success, per split and overall. */
export function loopTable(configs: GamesByConfig): DataTable {
  const rows: Record<string, Cell>[] = [];
  for (const [config, games] of configs) {
    for (const [split, gs] of [...SPLITS.map((s): [string, readonly PaperTrial<GameScore>[]] => [s, inSplit(games, s)]), ['all', games] as const]) {
      if (!gs.length) continue;
      const f = summarize(gs);
      rows.push({ config, split, n: gs.length, success: f.success.mean, loop_rate: f.loop_rate, recovery_rate: f.recovery_rate, max_visits: f.max_visits, loop_free_success: f.loop_free_success });
    }
  }
  return {
    id: 'wikirace-loops', title: 'Loops and recovery (appendix D, Figure 10): loop frequency, recovery rate, average maximum visitation',
    columns: ['config', 'split', 'n', 'success', 'loop_rate', 'recovery_rate', 'max_visits', 'loop_free_success'], rows,
    percent: ['success', 'loop_rate', 'recovery_rate', 'loop_free_success'],
    notes: ['A game loops when it visits some page (the source counts) twice or more. recovery_rate: share of looping games that still reached the target; max_visits: mean over games of the most visits of one page; loop_free_success: success of the games without a loop (section 5.2).'],
  };
}

/** Figure 5's line: through the model configurations' points only (`fitted` yes), never a baseline's. */
export const figure5Fit = (t: DataTable) => fitLine(t.rows.filter((r) => r.fitted === 'yes').map((r) => ({ x: r.loop_rate as number, y: r.success as number })));

/**
 * Figure 5: success against loop frequency, one point per configuration and split, and the least-squares
 * line through the model configurations' points (the paper's points are its models; the oracle never loops
 * and random loops almost always, so their points would pull the line by construction).
 */
export function figure5(configs: GamesByConfig): DataTable {
  const rows: Record<string, Cell>[] = [];
  const baselines: string[] = [];
  for (const [config, games] of configs) {
    const model = isModelConfig(games);
    if (!model && games.length) baselines.push(config);
    for (const split of SPLITS) {
      const gs = inSplit(games, split);
      if (!gs.length) continue;
      const f = summarize(gs);
      rows.push({ config, split, n: gs.length, loop_rate: f.loop_rate, success: f.success.mean, fitted: model ? 'yes' : 'no' });
    }
  }
  const table: DataTable = {
    id: 'wikirace-figure5', title: 'Figure 5: success rate vs loop frequency (per configuration and split)',
    columns: ['config', 'split', 'n', 'loop_rate', 'success', 'fitted'], rows, percent: ['loop_rate', 'success'], notes: [],
  };
  const fit = figure5Fit(table);
  const fmt = (v: number | null): string => (v === null ? '-' : v.toFixed(3));
  table.notes.push(
    fit
      ? `Least-squares line over the ${fit.n} points of model configurations (fitted: yes): success = ${fmt(fit.intercept)} + ${fmt(fit.slope)} x loop_rate; slope 95% interval [${fmt(fit.slope_lo)}, ${fmt(fit.slope_hi)}] (Student's t, ${fit.n - 2} df; the paper: -1.02 [-1.13, -0.91] over its models).`
      : 'No line: fewer than 2 points of model configurations, or all with the same loop frequency.',
    ...(baselines.length ? [`Shown, not fitted (no model: the built-in baselines, or an agent whose model the harness did not see): ${baselines.join(', ')}.`] : []),
  );
  return table;
}

/** Figure 8a: success had the move limit been T, from each game's moves, per configuration and optimal length. */
export function figure8a(configs: GamesByConfig): DataTable {
  const limits = [5, 10, 15, 20, 25, 30];
  const rows: Record<string, Cell>[] = [];
  for (const [config, games] of configs) {
    for (const length of lengthsOf(configs)) {
      const gs = games.filter((g) => g.score.optimal_length === length);
      if (!gs.length) continue;
      const row: Record<string, Cell> = { config, optimal_length: length, n: gs.length };
      for (const t of limits) row[`T${t}`] = share(gs.filter((g) => g.score.success === 1 && g.score.steps <= t).length, gs.length);
      rows.push(row);
    }
  }
  return {
    id: 'wikirace-figure8a', title: 'Figure 8a: completion rate within T moves, by optimal path length',
    columns: ['config', 'optimal_length', 'n', ...limits.map((t) => `T${t}`)], rows, percent: limits.map((t) => `T${t}`),
    notes: ['From one run: a game that reached the target in m moves counts for every T >= m (the games ran with their own move limit, 30 unless set).'],
  };
}

/** The link cap a game's task set (its leg.json's max_links, else 50). */
const linkCapOf = (game: PaperTrial<GameScore>): number => linkLimitOf(taskOf(game));

/** Figure 8b: success within 30 moves on pairs of optimal length 3 and 4, by the number of links offered per step. */
export function figure8b(configs: GamesByConfig): DataTable {
  const rows: Record<string, Cell>[] = [];
  for (const [config, games] of configs) {
    const short = games.filter((g) => g.score.optimal_length === 3 || g.score.optimal_length === 4);
    const byCap = new Map<number, PaperTrial<GameScore>[]>();
    for (const g of short) byCap.set(linkCapOf(g), [...(byCap.get(linkCapOf(g)) ?? []), g]);
    for (const [cap, gs] of [...byCap].sort((a, b) => a[0] - b[0])) {
      rows.push({ config, links: cap, n: gs.length, success_at_30: share(gs.filter((g) => g.score.success === 1 && g.score.steps <= 30).length, gs.length) });
    }
  }
  return {
    id: 'wikirace-figure8b', title: 'Figure 8b: success within 30 moves vs links offered per step (optimal length 3 and 4)',
    columns: ['config', 'links', 'n', 'success_at_30'], rows, percent: ['success_at_30'],
    notes: ["links: the task's max_links (50 when unset; the paper tries 30, 50 and 70)."],
  };
}

/** Figure 8c: moves beyond the optimal over successful games, by optimal path length. */
export function figure8c(configs: GamesByConfig): DataTable {
  const rows: Record<string, Cell>[] = [];
  for (const [config, games] of configs) {
    for (const length of lengthsOf(configs)) {
      const won = games.filter((g) => g.score.optimal_length === length && g.score.success === 1);
      const all = games.filter((g) => g.score.optimal_length === length).length;
      if (all) rows.push({ config, optimal_length: length, games: all, successes: won.length, extra_steps: meanOf(won.map((g) => g.score.suboptimal_steps)) });
    }
  }
  return {
    id: 'wikirace-figure8c', title: 'Figure 8c: extra moves of successful games, by optimal path length',
    columns: ['config', 'optimal_length', 'games', 'successes', 'extra_steps'], rows, percent: [],
    notes: ['extra_steps: mean moves beyond the shortest path over the successful games; "-" where none succeeded.'],
  };
}

/** Figure 1 on the games' graph (leg.json's graph_sha256): probes join by model and graph. */
export const figure1Table = (configs: GamesByConfig): DataTable => figure1(configs, (g) => taskOf(g).graph_sha256);

/** The LLM-WikiRace paper's views of scored games, in the paper's order. */
export function wikiracePaperTables(configs: GamesByConfig): DataTable[] {
  return [table1(configs), figure1Table(configs), loopTable(configs), figure5(configs), figure8a(configs), figure8b(configs), figure8c(configs)];
}
