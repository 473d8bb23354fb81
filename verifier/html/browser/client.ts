/**
 * The report page's script (bundled by scripts/bundle.mjs into dist/viewer-client.js, which page.ts
 * inlines): the trials table (filter, sort, show more) and the trial pages, drawn from the embedded JSON
 * when their link is followed (#trial/<id>), one at a time.
 */
import type { Column, ReportData, TrialRow } from '../model.js';
import { byId, esc, fmt, trialHref, value } from './format.js';
import { trialPage } from './trial-page.js';

const data = JSON.parse(byId('report-data').textContent ?? '') as ReportData;
const PAGE = 300;
const FIXED: Column[] = [
  { key: 'agent', label: 'configuration', format: 'text' },
  { key: 'task', label: 'task (opens the trial)', format: 'text' },
  { key: 'attempt', label: 'try', format: 'int' },
  { key: 'level', label: 'level', format: 'text' },
  { key: 'status', label: 'status', format: 'text' },
];
const columns = FIXED.concat(data.columns);
const indexById: Record<string, number> = {};
data.rows.forEach((r, i) => {
  indexById[r.id] = i;
});
const state: { sort: string | null; desc: boolean; shown: number } = { sort: null, desc: false, shown: PAGE };

type FilterKey = 'agent' | 'variant' | 'level' | 'status';

function options(id: string, values: string[]): void {
  const select = byId<HTMLSelectElement>(id);
  values.forEach((v) => {
    const o = document.createElement('option');
    o.value = v;
    o.textContent = v;
    select.appendChild(o);
  });
  select.addEventListener('change', () => {
    state.shown = PAGE;
    drawRows();
  });
}
function distinct(key: FilterKey): string[] {
  const seen: Record<string, true> = {};
  data.rows.forEach((r) => {
    seen[r[key]] = true;
  });
  return Object.keys(seen).sort();
}

const tableHead = (): HTMLElement => document.querySelector<HTMLElement>('#trials-table thead')!;

function drawHead(): void {
  tableHead().innerHTML =
    '<tr>' +
    columns
      .map((c) => {
        const mark = state.sort === c.key ? (state.desc ? ' ▼' : ' ▲') : '';
        return '<th data-key="' + esc(c.key) + '" class="' + (c.format === 'text' ? '' : 'num') + '" title="sort">' + esc(c.label) + mark + '</th>';
      })
      .join('') +
    '</tr>';
}

function filtered(): TrialRow[] {
  const text = byId<HTMLInputElement>('filter-text').value.trim().toLowerCase();
  const chosen = (key: FilterKey) => byId<HTMLSelectElement>('filter-' + key).value;
  const agent = chosen('agent'), variant = chosen('variant'), level = chosen('level'), status = chosen('status');
  const rows = data.rows.filter((r) => {
    if (agent && r.agent !== agent) return false;
    if (variant && r.variant !== variant) return false;
    if (level && r.level !== level) return false;
    if (status && r.status !== status) return false;
    if (!text) return true;
    const hay = (r.id + ' ' + r.task + ' ' + Object.keys(r.cells).map((k) => r.cells[k]).join(' ')).toLowerCase();
    return hay.indexOf(text) >= 0;
  });
  if (state.sort) {
    const key = state.sort, sign = state.desc ? -1 : 1;
    rows.sort((a, b) => {
      const x = value(a, key), y = value(b, key);
      if (x === y) return 0;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * sign;
    });
  }
  return rows;
}

function drawRows(): void {
  const rows = filtered();
  const shown = rows.slice(0, state.shown);
  document.querySelector('#trials-table tbody')!.innerHTML = shown
    .map(
      (r) =>
        '<tr class="status-' + esc(r.status) + '" data-trial="' + esc(r.id) + '">' +
        columns
          .map((c) => {
            const v = value(r, c.key);
            if (c.key === 'task') return '<td><a href="' + esc(trialHref(r.id)) + '" title="' + esc(r.id) + '">' + esc(r.task) + '</a></td>';
            let cls = c.format === 'text' ? '' : 'num';
            if (c.key === 'fa' && v !== null) cls += v ? ' good' : ' bad';
            return '<td class="' + cls + '" data-key="' + esc(c.key) + '">' + esc(fmt(v, c.format)) + '</td>';
          })
          .join('') +
        '</tr>',
    )
    .join('');
  byId('trial-count').textContent = '(' + rows.length + ' of ' + data.rows.length + ')';
  byId('trials-more').hidden = rows.length <= state.shown;
}

function route(): void {
  const hash = location.hash;
  const onTrial = hash.indexOf('#trial/') === 0;
  byId('overview').hidden = onTrial;
  byId('trial-page').hidden = !onTrial;
  if (onTrial) {
    trialPage(data, indexById, decodeURIComponent(hash.slice('#trial/'.length)));
    window.scrollTo(0, 0);
  } else if (hash.length > 1) {
    const target = document.getElementById(hash.slice(1));
    if (target) target.scrollIntoView();
  } else {
    window.scrollTo(0, 0);
  }
}

options('filter-agent', distinct('agent'));
options('filter-variant', distinct('variant'));
options('filter-level', distinct('level'));
options('filter-status', distinct('status'));
byId('filter-text').addEventListener('input', () => {
  state.shown = PAGE;
  drawRows();
});
tableHead().addEventListener('click', (e) => {
  const th = (e.target as Element).closest('th');
  if (!th) return;
  const key = th.getAttribute('data-key');
  state.desc = state.sort === key ? !state.desc : false;
  state.sort = key;
  drawHead();
  drawRows();
});
byId('show-more').addEventListener('click', () => {
  state.shown += PAGE;
  drawRows();
});
window.addEventListener('hashchange', route);
drawHead();
drawRows();
route();
