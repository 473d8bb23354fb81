import { readdirSync, statSync, type Dirent } from 'node:fs';
import path from 'node:path';
import { isJobFolder, JOB_FILE, listTrialDirs } from '../../trial/folder.js';
import { aggregate, familyOfResults } from '../aggregate.js';
import { readJobResults } from '../results.js';
import { agentCards } from './build.js';
import { esc } from './escape.js';
import { htmlViewOf } from './family-view.js';
import { configLabel } from './labels.js';
import { PAGE_STYLE } from './style.js';
import { jobTotals, type JobTotals } from './totals.js';

/** One job of a jobs folder as `aar view` lists it. */
export interface JobSummary {
  name: string;
  dir: string;
  family: string;
  /** When it last changed (its newest trial, else its job.json), ISO. */
  date: string;
  configs: { label: string; figures: string[] }[];
  legs: number;
  totals: JobTotals | null;
  unreadable: number;
}

/** A folder entry that is a folder, or a link to one (a folder of links to job folders is a folder of jobs). */
const isFolderEntry = (dir: string, e: Dirent): boolean => e.isDirectory() || (e.isSymbolicLink() && statSync(path.join(dir, e.name), { throwIfNoEntry: false })?.isDirectory() === true);

/** The job folders directly inside `dir` (or linked from it), or null when `dir` is itself a job folder or holds none. */
export function jobFoldersIn(dir: string): string[] | null {
  if (isJobFolder(dir)) return null;
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true }).filter((e) => !e.name.startsWith('.') && isFolderEntry(dir, e)).map((e) => e.name);
  } catch {
    return null;
  }
  const jobs = names.filter((n) => isJobFolder(path.join(dir, n))).sort();
  return jobs.length ? jobs.map((n) => path.join(dir, n)) : null;
}

/** Refuses, in one line, a folder that is neither a job folder nor a folder of job folders. */
export function requireJobsFolder(dir: string): string[] {
  try {
    if (!statSync(dir).isDirectory()) throw new Error(`${dir}: a file, not a job folder nor a folder of jobs`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new Error(`${dir}: no such folder (give a job folder or a folder of jobs)`);
    throw error;
  }
  const jobs = jobFoldersIn(dir);
  if (!jobs) throw new Error(`${dir}: not a job folder nor a folder of jobs (no ${JOB_FILE} or trial folder in it or in its sub-folders)`);
  return jobs;
}

export async function summarizeJob(dir: string): Promise<JobSummary> {
  const { results, unreadable } = readJobResults(listTrialDirs(dir));
  const family = familyOfResults(results);
  const view = await htmlViewOf(family);
  const cards = agentCards(aggregate(results), view);
  const stamps = results.map((r) => r.record.finished_at ?? r.record.started_at).filter(Boolean).sort();
  const date = stamps.at(-1) ?? statSync(path.join(dir, JOB_FILE), { throwIfNoEntry: false })?.mtime.toISOString() ?? statSync(dir).mtime.toISOString();
  return {
    name: path.basename(path.resolve(dir)),
    dir,
    family: family.name,
    date,
    configs: cards.map((c) => ({ label: configLabel(c.agent, c.model), figures: c.figures.slice(0, 3).map((f) => `${f.label} ${f.value}`) })),
    legs: new Set(results.map((r) => r.record.leg.id)).size,
    totals: jobTotals(results, (r) => family.progress.success(r.score!) === 1)[0] ?? null,
    unreadable: unreadable.length,
  };
}

/** The page listing jobs, newest first: each with its date, configurations and their headline figures, legs, trials, tokens and cost. */
export function renderJobList(root: string, jobs: readonly JobSummary[]): string {
  const rows = [...jobs]
    .sort((a, b) => b.date.localeCompare(a.date))
    .map((j) => {
      const t = j.totals;
      const configs = j.configs.map((c) => `<div><strong>${esc(c.label)}</strong> <span class="muted">${esc(c.figures.join(' · '))}</span></div>`).join('');
      const cells = [
        `<a href="job/${encodeURIComponent(j.name)}/">${esc(j.name)}</a>${j.unreadable ? ` <span class="warn">(${j.unreadable} unreadable trials)</span>` : ''}`,
        esc(j.date.slice(0, 16).replace('T', ' ')),
        esc(j.family),
        configs || '<span class="muted">none yet</span>',
        esc(j.legs),
        esc(t ? `${t.trials} (${t.scored} scored, ${t.correct} correct)` : '0'),
        esc(t ? `${(t.input_tokens + t.output_tokens).toLocaleString('en-US')}` : '–'),
        esc(t ? `$${t.cost_usd.toFixed(4)}` : '–'),
      ];
      return `<tr data-job="${esc(j.name)}">${cells.map((c, i) => `<td${[4, 5, 6, 7].includes(i) ? ' class="num"' : ''}>${c}</td>`).join('')}</tr>`;
    })
    .join('');
  const head = ['job', 'last trial (UTC)', 'family', 'configurations: headline figures', 'legs', 'trials', 'tokens', 'cost'];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'">
<title>AAR Harness jobs: ${esc(root)}</title><style>${PAGE_STYLE}</style></head>
<body><header class="top"><span class="home">AAR Harness jobs</span><span class="meta">${esc(path.resolve(root))} · ${jobs.length} jobs</span></header>
<main><h2>Jobs</h2><p class="note">Every job folder in ${esc(root)}, the newest first. A job's name opens its report.</p>
<div class="scroll"><table class="trials" id="jobs-table"><thead><tr>${head.map((h) => `<th>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows}</tbody></table></div></main></body></html>
`;
}
