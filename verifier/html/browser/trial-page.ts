import type { DetailTable, ReportData, TrialDetail, TrialRow } from '../model.js';
import { conversationHtml } from './conversation.js';
import { byId, esc, fmt, trialHref } from './format.js';

function table(t: DetailTable): string {
  let html = '<section class="detail"><h3>' + esc(t.title) + '</h3>' + (t.note ? '<p class="note">' + esc(t.note) + '</p>' : '');
  if (!t.columns.length) return html + '</section>';
  if (!t.rows.length) return html + '</section>';
  html += '<div class="scroll"><table class="detail-table"><thead><tr>' + t.columns.map((c) => '<th class="' + (c.format === 'text' ? '' : 'num') + '">' + esc(c.label) + '</th>').join('') + '</tr></thead><tbody>';
  t.rows.forEach((row, i) => {
    const mark = t.marks && t.marks[i] ? ' class="' + esc(t.marks[i]) + '"' : '';
    const id = t.rowIds && t.rowIds[i] ? ' id="' + esc(t.rowIds[i]) + '"' : '';
    html +=
      '<tr' + mark + id + '>' +
      t.columns
        .map((c) => {
          const v = row[c.key];
          const cls = c.format === 'text' ? 'text col-' + c.key : 'num';
          if (c.key === 'ok' && typeof v === 'boolean') return '<td class="' + (v ? 'good' : 'bad') + '">' + (v ? '✓' : '✗') + '</td>';
          if (c.key === 'preview') return '<td class="' + cls + '"><div>' + esc(fmt(v, c.format)) + '</div></td>';
          // The golden trace's "#n" name tool calls: each a jump to the call in the conversation (digits only, after escaping).
          if (c.key === 'agent') return '<td class="' + cls + '">' + esc(fmt(v, c.format)).replace(/#(\d+)/g, '<button type="button" class="jump" data-jump="call-$1">#$1</button>') + '</td>';
          return '<td class="' + cls + '">' + esc(fmt(v, c.format)) + '</td>';
        })
        .join('') +
      '</tr>';
  });
  return html + '</tbody></table></div></section>';
}

/** A trial's data: base64 of deflated JSON (see page.ts packTrial). */
async function unpack(text: string): Promise<TrialDetail> {
  const bytes = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return JSON.parse(await new Response(stream).text()) as TrialDetail;
}

/** A link to a file of the trial folder: served by `aar view` (raw/<trial>/<path>), or the file itself when the page is a local file. */
function rawHref(d: TrialDetail, file: string): string {
  if (location.protocol === 'file:') return 'file://' + encodeURI(d.dir + '/' + file).replace(/[?#]/g, encodeURIComponent);
  return 'raw/' + encodeURIComponent(d.id) + '/' + file.split('/').map(encodeURIComponent).join('/');
}

function filesHtml(d: TrialDetail): string {
  const items = d.files.map((f) => '<li><a class="raw" href="' + esc(rawHref(d, f.path)) + '" target="_blank" rel="noopener">' + esc(f.path) + '</a> <span class="muted">' + esc(f.bytes.toLocaleString('en-US')) + ' bytes</span></li>').join('');
  return '<section class="detail" id="trial-files"><h3>Files</h3><p class="note">The trial folder as stored: <code>' + esc(d.dir) + '</code></p><ul class="files">' + items + '</ul></section>';
}

/** Previous and next trial among the rows the trials table shows (its filters and order, kept in the hash). */
function stepper(row: TrialRow, rows: readonly TrialRow[], query: string): string {
  const at = rows.findIndex((r) => r.id === row.id);
  if (at < 0) return '<span class="muted">(not among the filtered trials)</span>';
  const link = (r: TrialRow | undefined, label: string, id: string) => (r ? '<a id="' + id + '" href="' + esc(trialHref(r.id) + query) + '" title="' + esc(r.id) + '">' + label + '</a>' : '<span class="muted">' + label + '</span>');
  return link(rows[at - 1], '← previous', 'trial-prev') + ' <span id="trial-position">' + (at + 1) + ' of ' + rows.length + '</span> ' + link(rows[at + 1], 'next →', 'trial-next');
}

function drawTrial(data: ReportData, page: HTMLElement, row: TrialRow, d: TrialDetail, rows: readonly TrialRow[], query: string): void {
  const facts = d.facts.map((f) => '<tr><th>' + esc(f[0]) + '</th><td>' + esc(fmt(f[1], 'text')) + '</td></tr>').join('');
  const score = d.score;
  // Families whose agents write no answer file (WikiRace) show the verdict alone.
  const answered = d.answer !== null || (score && score.expected_answer !== undefined);
  const outcome = score
    ? '<div class="outcome ' + (row.correct ? 'good' : 'bad') + '">' +
      (answered ? '<div class="label">answer</div><div class="value" id="trial-answer">' + esc(d.answer === null ? '(none)' : d.answer.trim() || '(empty)') + '</div>' : '') +
      (score.expected_answer !== undefined ? '<div class="label">expected</div><div class="value" id="trial-expected">' + esc(score.expected_answer) + '</div>' : '') +
      '<div class="verdict" id="trial-verdict">' + esc(d.verdict || '') + '</div></div>'
    : '<div class="outcome muted"><div class="verdict">not scored: ' + esc(d.error || 'infrastructure error') + '</div></div>';
  const headline = data.columns
    .filter((c) => c.key !== 'answer')
    .map((c) => '<div class="figure" data-figure="' + esc(c.key) + '"><div class="label">' + esc(c.label) + '</div><div class="value">' + esc(fmt(row.cells[c.key], c.format)) + '</div></div>')
    .join('');
  const [familyTables, logTables] = [d.tables.slice(0, -2), d.tables.slice(-2)];
  const figures = d.figures.map((f) => '<figure class="chart path-figure"><figcaption><strong>' + esc(f.title) + '</strong> <span>' + esc(f.note) + '</span></figcaption>' + f.svg + '</figure>').join('');
  page.innerHTML =
    '<p class="crumbs"><a href="#trials' + esc(query) + '">← all trials</a> · <a href="#">overview</a> · ' + stepper(row, rows, query) + ' · <a href="#trial-files">files</a></p>' +
    '<h2 id="trial-title">' + esc(d.id) + '</h2>' +
    '<p class="sub">' + esc(row.agent) + ' on ' + esc(row.task) + ' (' + esc(data.sliceKeys[0]) + ' ' + esc(row.coarse) + ', ' + esc(data.sliceKeys[1]) + ' ' + esc(row.fine) + ') · <span class="badge status-' + esc(row.status) + '">' + esc(row.status) + '</span>' +
    ' · ' + esc(fmt(row.wall_s, 'int')) + ' s · ' + esc(fmt(row.cost_usd, 'usd')) +
    (d.error ? ' · <span class="warn">' + esc(d.error) + '</span>' : '') + '</p>' +
    '<div class="trial-head">' + outcome + '<div class="figures">' + headline + '</div></div>' +
    '<details class="instruction"' + (d.instruction ? '' : ' hidden') + '><summary>Instruction (what the agent was told)</summary><pre>' + esc(d.instruction || '') + '</pre></details>' +
    (figures ? '<div class="charts">' + figures + '</div>' : '') +
    familyTables.map(table).join('') +
    conversationHtml(d.conversation) +
    '<details class="log-tables"><summary>The logs as tables (tool calls, model turns)</summary>' + logTables.map(table).join('') + '</details>' +
    '<section class="detail"><h3>Run</h3><table class="facts">' + facts + '</table></section>' +
    filesHtml(d) +
    (d.agentOutput ? '<details><summary>Agent output</summary><pre>' + esc(d.agentOutput) + '</pre></details>' : '') +
    (score ? '<details><summary>score.json</summary><pre id="trial-score">' + esc(JSON.stringify(score, null, 2)) + '</pre></details>' : '');
}

/** A jump link (a tool call to its golden stop, a stop's #n to the call): scroll there and mark it a moment. */
function jump(e: Event): void {
  const button = (e.target as Element).closest('[data-jump]');
  const target = button && document.getElementById(button.getAttribute('data-jump') || '');
  if (!target) return;
  e.preventDefault();
  target.scrollIntoView({ block: 'center' });
  target.classList.add('flash');
  setTimeout(() => target.classList.remove('flash'), 1500);
}

/** Draws trial `id` into #trial-page from its packed data (the row's index names its script element). */
export function trialPage(data: ReportData, indexById: Record<string, number>, id: string, rows: readonly TrialRow[], query: string): void {
  const i = indexById[id];
  const page = byId('trial-page');
  if (!page.getAttribute('data-jumps')) {
    page.addEventListener('click', jump);
    page.setAttribute('data-jumps', '1');
  }
  if (i === undefined) {
    page.innerHTML = '<p><a href="#trials">← all trials</a></p><h2>No trial ' + esc(id) + ' in this report</h2>';
    return;
  }
  const row = data.rows[i];
  page.setAttribute('data-loading', id);
  unpack(byId('trial-data-' + i).textContent ?? '')
    .then((d) => {
      if (page.getAttribute('data-loading') !== id) return;
      drawTrial(data, page, row, d, rows, query);
      page.setAttribute('data-shown', id);
    })
    .catch((e: unknown) => {
      page.innerHTML = '<p><a href="#trials">← all trials</a></p><h2>Cannot read the data of trial ' + esc(id) + '</h2><pre>' + esc(e instanceof Error ? e.message : e) + '</pre>';
    });
}
