import { existsSync } from 'node:fs';
import path from 'node:path';
import { requireTrialDirs } from '../../trial/folder.js';
import { aggregate, familyOfResults, type AggregateRow } from '../aggregate.js';
import { loadJobResults, type TrialResult } from '../results.js';
import { analyseJobs } from './analysis.js';
import { renderChartSvg } from './charts.js';
import { htmlViewOf, type HtmlFamilyView } from './family-view.js';
import type { ReportData } from './model.js';
import { renderPage, type AgentCard, type RenderedChart } from './page.js';
import { jobTotals } from './totals.js';
import { trialDetail, trialRow } from './trial-data.js';

export interface HtmlReportOptions {
  title?: string;
  /** Characters of each tool result preview a trial page keeps (default DEFAULT_PREVIEW_CHARS). */
  previewChars?: number;
}

/**
 * The trials of one or more jobs. With several jobs, agents and trial ids are prefixed with their job's
 * name (`job:agent`, as `aar compare` labels them), so the same agent in two jobs is two configurations
 * and no two trials share an anchor.
 */
export function loadReportTrials(jobDirs: readonly string[]): TrialResult[] {
  if (!jobDirs.length) throw new Error('no job folder given');
  jobDirs.forEach(requireJobFolder);
  const perJob = jobDirs.map((dir) => ({ name: path.basename(path.resolve(dir)), results: loadJobResults(dir) }));
  if (perJob.length === 1) return perJob[0].results;
  return perJob.flatMap(({ name, results }) =>
    results.map((r) => ({ ...r, record: { ...r.record, trial_id: `${name}:${r.record.trial_id}`, agent: { ...r.record.agent, id: `${name}:${r.record.agent.id}` } } })),
  );
}

/**
 * A job folder: it has a job.json (a job that has started, maybe with no finished trial yet) or trial
 * folders. An empty folder, a trial's own folder or any other folder is refused with what it is.
 */
export function requireJobFolder(dir: string): void {
  if (existsSync(path.join(dir, 'job.json'))) return;
  requireTrialDirs(dir);
}

export function agentCards(rows: readonly AggregateRow[], view: HtmlFamilyView): AgentCard[] {
  return rows
    .filter((r) => r.variant === '*' && r.level === '*')
    .map((r) => ({ agent: r.agent, model: r.model, trials: r.trials, scored: r.n, infraErrors: r.infra_errors, figures: view.headline(r) }));
}

/** The whole report as one self-contained HTML document (inline CSS, script and SVG; nothing fetched). */
export async function buildHtmlReport(jobDirs: readonly string[], options: HtmlReportOptions = {}): Promise<string> {
  const results = loadReportTrials(jobDirs);
  const family = familyOfResults(results);
  const view = await htmlViewOf(family);
  const rows = aggregate(results);
  const charts: RenderedChart[] = [];
  for (const [i, chart] of view.charts(results, rows).entries()) charts.push({ title: chart.title, note: chart.note, svg: await renderChartSvg(chart, i) });
  const jobs = jobDirs.map((d) => path.basename(path.resolve(d)));
  const data: ReportData = {
    title: options.title ?? `AAR Harness report: ${jobs.join(', ')}`,
    generatedAt: new Date().toISOString(),
    jobs,
    family: family.name,
    sliceKeys: [...family.sliceKeys],
    columns: view.columns,
    rows: results.map((r) => trialRow(r, view)),
  };
  const successOf = (r: TrialResult): boolean => family.progress.success(r.score!) === 1;
  return renderPage({
    data,
    totals: jobTotals(results, successOf),
    family,
    aggregateRows: rows,
    cards: agentCards(rows, view),
    charts,
    analysis: analyseJobs(jobDirs),
    details: await Promise.all(results.map((r) => trialDetail(r, view, options.previewChars))),
  });
}
