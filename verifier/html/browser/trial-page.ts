import type { DetailTable, ReportData, TrialDetail, TrialRow } from '../model.js';
import { byId, esc, fmt } from './format.js';

function table(t: DetailTable): string {
  let html = '<section class="detail"><h3>' + esc(t.title) + '</h3>' + (t.note ? '<p class="note">' + esc(t.note) + '</p>' : '');
  if (!t.columns.length) return html + '</section>';
  if (!t.rows.length) return html + '</section>';
  html += '<div class="scroll"><table class="detail-table"><thead><tr>' + t.columns.map((c) => '<th class="' + (c.format === 'text' ? '' : 'num') + '">' + esc(c.label) + '</th>').join('') + '</tr></thead><tbody>';
  t.rows.forEach((row, i) => {
    const mark = t.marks && t.marks[i] ? ' class="' + esc(t.marks[i]) + '"' : '';
    html +=
      '<tr' + mark + '>' +
      t.columns
        .map((c) => {
          const v = row[c.key];
          const cls = c.format === 'text' ? 'text col-' + c.key : 'num';
          if (c.key === 'ok' && typeof v === 'boolean') return '<td class="' + (v ? 'good' : 'bad') + '">' + (v ? '✓' : '✗') + '</td>';
          if (c.key === 'preview') return '<td class="' + cls + '"><div>' + esc(fmt(v, c.format)) + '</div></td>';
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

function drawTrial(data: ReportData, page: HTMLElement, row: TrialRow, d: TrialDetail): void {
  const facts = d.facts.map((f) => '<tr><th>' + esc(f[0]) + '</th><td>' + esc(fmt(f[1], 'text')) + '</td></tr>').join('');
  const score = d.score;
  const good = row.cells.fa === 1 || row.cells.success === 1 || (score && score.reward === 1);
  // Families whose agents write no answer file (WikiRace) show the verdict alone.
  const answered = d.answer !== null || (score && score.expected_answer !== undefined);
  const outcome = score
    ? '<div class="outcome ' + (good ? 'good' : 'bad') + '">' +
      (answered ? '<div class="label">answer</div><div class="value" id="trial-answer">' + esc(d.answer === null ? '(none)' : d.answer.trim() || '(empty)') + '</div>' : '') +
      (score.expected_answer !== undefined ? '<div class="label">expected</div><div class="value" id="trial-expected">' + esc(score.expected_answer) + '</div>' : '') +
      '<div class="verdict" id="trial-verdict">' + esc(d.verdict || '') + '</div></div>'
    : '<div class="outcome muted"><div class="verdict">not scored: ' + esc(d.error || 'infrastructure error') + '</div></div>';
  const headline = data.columns
    .filter((c) => c.key !== 'answer')
    .map((c) => '<div class="figure" data-figure="' + esc(c.key) + '"><div class="label">' + esc(c.label) + '</div><div class="value">' + esc(fmt(row.cells[c.key], c.format)) + '</div></div>')
    .join('');
  page.innerHTML =
    '<p class="crumbs"><a href="#trials">← all trials</a> · <a href="#">overview</a></p>' +
    '<h2 id="trial-title">' + esc(d.id) + '</h2>' +
    '<p class="sub">' + esc(row.agent) + ' on ' + esc(row.task) + ' (' + esc(row.variant) + ', ' + esc(row.level) + ') · <span class="badge status-' + esc(row.status) + '">' + esc(row.status) + '</span>' +
    (d.error ? ' · <span class="warn">' + esc(d.error) + '</span>' : '') + '</p>' +
    '<div class="trial-head">' + outcome + '<div class="figures">' + headline + '</div></div>' +
    '<details class="instruction"' + (d.instruction ? '' : ' hidden') + '><summary>Instruction (what the agent was told)</summary><pre>' + esc(d.instruction || '') + '</pre></details>' +
    d.tables.map(table).join('') +
    '<section class="detail"><h3>Run</h3><table class="facts">' + facts + '</table><p class="note">Trial folder: <code>' + esc(d.dir) + '</code></p></section>' +
    (d.agentOutput ? '<details><summary>Agent output</summary><pre>' + esc(d.agentOutput) + '</pre></details>' : '') +
    (score ? '<details><summary>score.json</summary><pre id="trial-score">' + esc(JSON.stringify(score, null, 2)) + '</pre></details>' : '');
}

/** Draws trial `id` into #trial-page from its packed data (the row's index names its script element). */
export function trialPage(data: ReportData, indexById: Record<string, number>, id: string): void {
  const i = indexById[id];
  const page = byId('trial-page');
  if (i === undefined) {
    page.innerHTML = '<p><a href="#trials">← all trials</a></p><h2>No trial ' + esc(id) + ' in this report</h2>';
    return;
  }
  const row = data.rows[i];
  page.setAttribute('data-loading', id);
  unpack(byId('trial-data-' + i).textContent ?? '')
    .then((d) => {
      if (page.getAttribute('data-loading') === id) drawTrial(data, page, row, d);
    })
    .catch((e: unknown) => {
      page.innerHTML = '<p><a href="#trials">← all trials</a></p><h2>Cannot read the data of trial ' + esc(id) + '</h2><pre>' + esc(e instanceof Error ? e.message : e) + '</pre>';
    });
}
