import { createHash } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import type { SliceKeys, TaskFamily } from '../../tasks/family.js';
import type { AggregateRow } from '../aggregate.js';
import { analysisHtml, type Analysis } from './analysis.js';
import { clientScript } from './client.js';
import { esc } from './escape.js';
import type { Headline } from './family-view.js';
import { configLabel } from './labels.js';
import type { ReportData, TrialDetail } from './model.js';
import { PAGE_STYLE } from './style.js';
import { totalsHtml, type JobTotals } from './totals.js';
import { plural } from '../../common/words.js';

export interface AgentCard {
  agent: string;
  model: string;
  trials: number;
  scored: number;
  infraErrors: number;
  figures: Headline[];
}

export interface RenderedChart {
  title: string;
  note: string;
  svg: string;
}

export interface PageParts {
  data: ReportData;
  family: TaskFamily<any, any, any>;
  aggregateRows: readonly AggregateRow[];
  cards: readonly AgentCard[];
  charts: readonly RenderedChart[];
  analysis: Analysis;
  /** One per row of data.rows, in the same order; embedded as JSON and drawn only when opened. */
  details: readonly TrialDetail[];
  totals: readonly JobTotals[];
}

/**
 * The page's Content-Security-Policy: its one script runs by its hash (so no inline handler in a text that
 * escaped escaping could run), nothing is fetched, and links open files only by navigation.
 */
export function contentSecurityPolicy(script: string): string {
  const hash = createHash('sha256').update(script).digest('base64');
  return `default-src 'none'; script-src 'sha256-${hash}'; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; base-uri 'none'; form-action 'none'`;
}


/** JSON inside a <script> element: `<` escaped so no text in it can close the element. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');

/**
 * A trial page's data: its JSON, deflated and in base64. Tool previews compress several times over, and the
 * browser inflates one trial only when its page is opened (DecompressionStream).
 */
export const TRIAL_DATA_TYPE = 'application/x-trial+deflate-raw+base64';
export const packTrial = (detail: TrialDetail): string => deflateRawSync(Buffer.from(JSON.stringify(detail)), { level: 6 }).toString('base64');

function cardHtml(card: AgentCard): string {
  const figures = card.figures
    .map(
      (f) =>
        `<div class="figure" data-agent="${esc(configLabel(card.agent, card.model))}" data-figure="${esc(f.key)}" data-mean="${f.mean ?? ''}">` +
        `<div class="label">${esc(f.label)}</div><div class="value">${esc(f.value)}</div>` +
        (f.interval ? `<div class="interval">95% CI ${esc(f.interval)}</div>` : '') +
        `</div>`,
    )
    .join('');
  const infra = card.infraErrors ? `, <span class="warn">${plural(card.infraErrors, 'infrastructure error')} (not scored)</span>` : '';
  return (
    `<article class="card"><h3>${esc(configLabel(card.agent, card.model))}</h3>` +
    `<p class="sub">${plural(card.trials, 'trial')}, ${card.scored} scored${infra}</p><div class="figures">${figures}</div></article>`
  );
}

/** `62.5 [30.6, 86.3]`: the interval on a line of its own under the figure, so the table fits the page. */
const figureCell = (text: string): string => {
  const at = text.indexOf(' [');
  return at > 0 && text.endsWith(']') ? `${esc(text.slice(0, at))}<span class="ci">${esc(text.slice(at + 1))}</span>` : esc(text);
};

function aggregateTable(family: TaskFamily<any, any, any>, rows: readonly AggregateRow[]): string {
  const header = ['configuration', ...family.sliceKeys, 'n', ...family.report.markdownHeader];
  const body = rows
    .map((r) => {
      const cls = r.variant === '*' ? ' class="total"' : r.level === '*' ? ' class="subtotal"' : '';
      const cells = [configLabel(r.agent, r.model), r.variant === '*' ? 'all' : r.variant, r.level === '*' ? 'all' : r.level, String(r.n), ...family.report.markdownCells(r)];
      return `<tr${cls}>${cells.map((c, i) => `<td${i >= 3 ? ' class="num"' : ''}>${figureCell(c)}</td>`).join('')}</tr>`;
    })
    .join('');
  // A header may break after a slash (tokens/step) as well as at its spaces.
  return `<div class="scroll"><table class="aggregate"><thead><tr>${header.map((h) => `<th>${esc(h).replaceAll('/', '/<wbr>')}</th>`).join('')}</tr></thead><tbody>${body}</tbody></table></div>`;
}

function chartsHtml(charts: readonly RenderedChart[]): string {
  if (!charts.length) return '';
  const figures = charts.map((c) => `<figure class="chart"><figcaption><strong>${esc(c.title)}</strong> <span>${esc(c.note)}</span></figcaption>${c.svg}</figure>`).join('');
  return `<section id="charts"><h2>Charts</h2><div class="charts">${figures}</div></section>`;
}

/** The trials table with its filters; the two slice filters are labelled by the family's slice keys (AAR: variant, level). */
const trialsSection = ([coarse, fine]: SliceKeys): string => `<section id="trials"><h2>Trials <span class="count" id="trial-count"></span></h2>
<div class="filters">
<input id="filter-text" type="search" placeholder="filter: task, trial id, diagnosis…" aria-label="filter text">
<select id="filter-agent" aria-label="agent"><option value="">all configurations</option></select>
<select id="filter-variant" aria-label="${esc(coarse)}"><option value="">all ${esc(coarse)}s</option></select>
<select id="filter-level" aria-label="${esc(fine)}"><option value="">all ${esc(fine)}s</option></select>
<select id="filter-status" aria-label="status"><option value="">all statuses</option></select>
<select id="filter-outcome" aria-label="outcome"><option value="">correct and wrong</option><option value="correct">correct</option><option value="wrong">wrong</option><option value="unscored">not scored</option></select>
</div>
<div class="scroll"><table id="trials-table" class="trials"><thead></thead><tbody></tbody></table></div>
<p class="more" id="trials-more" hidden><button type="button" id="show-more">show more</button></p>
</section>`;

/** Links to the overview's sections that this report has. */
function nav(parts: PageParts): string {
  const sections: [string, string, boolean][] = [
    ['agents', 'configurations', true],
    ['totals', 'jobs', true],
    ['charts', 'charts', parts.charts.length > 0],
    ['aggregate', 'by level', true],
    ['analysis', 'comparison', parts.analysis.tables.length + parts.analysis.notes.length > 0],
    ['trials', 'trials', true],
  ];
  return sections.filter(([, , shown]) => shown).map(([id, label]) => `<a href="#${id}">${label}</a>`).join('');
}

/** The page: overview (cards, aggregate table, charts), the trials table and the trial-page frame, data last. */
export function renderPage(parts: PageParts): string {
  const { data } = parts;
  const scored = data.rows.filter((r) => r.status !== 'infra_error').length;
  const details = parts.details.map((d, i) => `<script type="${TRIAL_DATA_TYPE}" id="trial-data-${i}">${packTrial(d)}</script>`).join('\n');
  const script = clientScript();
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy(script))}">
<title>${esc(data.title)}</title><style>${PAGE_STYLE}</style></head>
<body>
<header class="top"><a class="home" href="#">${esc(data.title)}</a>
<nav>${nav(parts)}</nav>
<span class="meta">family ${esc(data.family)} · ${plural(data.rows.length, 'trial')} (${scored} scored) · generated ${esc(data.generatedAt.slice(0, 16).replace('T', ' '))} UTC</span></header>
<main id="overview">
<section id="agents"><h2>Configurations</h2><div class="cards">${parts.cards.map(cardHtml).join('')}</div></section>
${totalsHtml(parts.totals)}
${chartsHtml(parts.charts)}
<section id="aggregate"><h2>By ${esc(parts.family.sliceKeys[0])} and ${esc(parts.family.sliceKeys[1])}</h2><p class="note">As <code>aar report</code> prints it: figures in %, 95% intervals in brackets.</p>${aggregateTable(parts.family, parts.aggregateRows)}</section>
${analysisHtml(parts.analysis)}
${trialsSection(parts.family.sliceKeys)}
</main>
<main id="trial-page" hidden></main>
<script type="application/json" id="report-data">${scriptJson(data)}</script>
${details}
<script>${script}</script>
</body></html>
`;
}
