import type { TrialResult } from '../results.js';
import { esc } from './escape.js';
import { plural } from '../../common/words.js';

/** One job's totals over its trials: tokens and cost as the gateway counted them, and time on the harness's clock. */
export interface JobTotals {
  job: string;
  trials: number;
  scored: number;
  correct: number;
  input_tokens: number;
  output_tokens: number;
  cached_tokens: number;
  cost_usd: number;
  /** Trials whose cost is unknown (no price for their model): the cost total leaves them out. */
  unpriced: number;
  wall_s: number;
}

/** Totals per job (record.job), in order of first appearance; `correct(r)` says whether a trial succeeded. */
export function jobTotals(results: readonly TrialResult[], correct: (r: TrialResult) => boolean): JobTotals[] {
  const byJob = new Map<string, JobTotals>();
  for (const r of results) {
    const { record } = r;
    let t = byJob.get(record.job);
    if (!t) byJob.set(record.job, (t = { job: record.job, trials: 0, scored: 0, correct: 0, input_tokens: 0, output_tokens: 0, cached_tokens: 0, cost_usd: 0, unpriced: 0, wall_s: 0 }));
    t.trials++;
    if (r.score) t.scored++;
    if (r.score && correct(r)) t.correct++;
    t.input_tokens += record.run.input_tokens ?? 0;
    t.output_tokens += record.run.output_tokens ?? 0;
    t.cached_tokens += record.run.cached_tokens ?? 0;
    if (record.run.cost_usd === null || record.run.cost_usd === undefined) {
      if ((record.run.input_tokens ?? 0) > 0) t.unpriced++;
    } else t.cost_usd += record.run.cost_usd;
    t.wall_s += record.timings.total_s;
  }
  return [...byJob.values()];
}

const int = (n: number): string => n.toLocaleString('en-US');

/** The overview's table of job totals. */
export function totalsHtml(totals: readonly JobTotals[]): string {
  const head = ['job', 'trials', 'scored', 'correct', 'input tokens', 'output tokens', 'cached tokens', 'cost (USD)', 'wall time (trial sum)'];
  const rows = totals
    .map((t) => {
      const cost = `$${t.cost_usd.toFixed(4)}${t.unpriced ? ` (+${plural(t.unpriced, 'trial')} unpriced)` : ''}`;
      const cells = [t.job, int(t.trials), int(t.scored), int(t.correct), int(t.input_tokens), int(t.output_tokens), int(t.cached_tokens), cost, `${(t.wall_s / 60).toFixed(1)} min`];
      return `<tr data-job="${esc(t.job)}">${cells.map((c, i) => `<td${i ? ' class="num"' : ''}>${esc(c)}</td>`).join('')}</tr>`;
    })
    .join('');
  return (
    `<section id="totals"><h2>Jobs</h2><p class="note">Per job: tokens and cost as the model gateway counted them (cached tokens are part of the input), and the trials' wall time added up.</p>` +
    `<div class="scroll"><table class="aggregate totals"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table></div></section>`
  );
}
