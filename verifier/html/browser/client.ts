/**
 * The report page's script (bundled by scripts/bundle.mjs into dist/viewer-client.js, which page.ts
 * inlines): the trials table (filter, sort, show more; the filters kept in the hash, state.ts) and the trial
 * pages, drawn from the embedded JSON when their link is followed (#trial/<id>), one at a time.
 */
import type { Column, ReportData } from '../model.js';
import { byId, esc, fmt, trialHref, value } from './format.js';
import { emptyState, FILTER_KEYS, filteredRows, parseHash, stateQuery, type FilterKey, type ViewState } from './state.js';
import { trialPage } from './trial-page.js';

const data = JSON.parse(byId('report-data').textContent ?? '') as ReportData;
const PAGE = 300;
const FIXED: Column[] = [
  { key: 'agent', label: 'configuration', format: 'text' },
  { key: 'task', label: 'task (opens the trial)', format: 'text' },
  { key: 'attempt', label: 'try', format: 'int' },
  { key: 'fine', label: data.sliceKeys[1], format: 'text' },
  { key: 'status', label: 'status', format: 'text' },
  { key: 'wall_s', label: 'wall s', format: 'int' },
];
// The cost column is the run's (trial.json), unless the family's cells already have one.
const columns = FIXED.concat(data.columns.some((c) => c.key === 'cost_usd') ? [] : [{ key: 'cost_usd', label: 'cost', format: 'usd' }], data.columns);
const indexById: Record<string, number> = {};
data.rows.forEach((r, i) => {
  indexById[r.id] = i;
});
let state: ViewState = emptyState();
let shown = PAGE;

const select = (key: FilterKey): HTMLSelectElement => byId<HTMLSelectElement>('filter-' + key);

function options(key: Exclude<FilterKey, 'outcome'>): void {
  const seen: Record<string, true> = {};
  data.rows.forEach((r) => {
    seen[r[key]] = true;
  });
  Object.keys(seen)
    .sort()
    .forEach((v) => {
      const o = document.createElement('option');
      o.value = v;
      o.textContent = v;
      select(key).appendChild(o);
    });
}

/** The controls show the state (after a reload or a link with filters). */
function showState(): void {
  byId<HTMLInputElement>('filter-text').value = state.text;
  FILTER_KEYS.forEach((k) => {
    select(k).value = state.filters[k];
  });
}

/** The state into the URL, without a new history entry per keystroke. */
function keepState(): void {
  history.replaceState(null, '', '#trials' + stateQuery(state, data.sliceKeys));
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

function drawRows(): void {
  const rows = filteredRows(data, state);
  const query = stateQuery(state, data.sliceKeys);
  document.querySelector('#trials-table tbody')!.innerHTML = rows
    .slice(0, shown)
    .map(
      (r) =>
        '<tr class="status-' + esc(r.status) + '" data-trial="' + esc(r.id) + '" data-correct="' + esc(r.correct) + '">' +
        columns
          .map((c) => {
            const v = value(r, c.key);
            if (c.key === 'task') return '<td><a href="' + esc(trialHref(r.id) + query) + '" title="' + esc(r.id) + '">' + esc(r.task) + '</a></td>';
            let cls = c.format === 'text' ? '' : 'num';
            if ((c.key === 'fa' || c.key === 'success') && v !== null) cls += v ? ' good' : ' bad';
            return '<td class="' + cls + '" data-key="' + esc(c.key) + '">' + esc(fmt(v, c.format)) + '</td>';
          })
          .join('') +
        '</tr>',
    )
    .join('');
  byId('trial-count').textContent = '(' + rows.length + ' of ' + data.rows.length + ')';
  byId('trials-more').hidden = rows.length <= shown;
}

function changed(): void {
  shown = PAGE;
  keepState();
  drawRows();
}

function route(): void {
  const { route: where, state: fromUrl } = parseHash(location.hash, data.sliceKeys);
  const onTrial = where.indexOf('trial/') === 0;
  // A section link (#charts) keeps the filters; the trials table and trial pages carry theirs.
  if (onTrial || where === 'trials' || !where) state = fromUrl;
  byId('overview').hidden = onTrial;
  byId('trial-page').hidden = !onTrial;
  showState();
  drawHead();
  drawRows();
  if (onTrial) {
    trialPage(data, indexById, decodeURIComponent(where.slice('trial/'.length)), filteredRows(data, state), stateQuery(state, data.sliceKeys));
    window.scrollTo(0, 0);
  } else if (where) {
    const target = document.getElementById(where);
    if (target) target.scrollIntoView();
  } else {
    window.scrollTo(0, 0);
  }
}

(['agent', 'coarse', 'fine', 'status'] as const).forEach(options);
FILTER_KEYS.forEach((k) =>
  select(k).addEventListener('change', () => {
    state.filters[k] = select(k).value;
    changed();
  }),
);
byId('filter-text').addEventListener('input', () => {
  state.text = byId<HTMLInputElement>('filter-text').value;
  changed();
});
tableHead().addEventListener('click', (e) => {
  const th = (e.target as Element).closest('th');
  if (!th) return;
  const key = th.getAttribute('data-key');
  state.desc = state.sort === key ? !state.desc : false;
  state.sort = key;
  drawHead();
  changed();
});
byId('show-more').addEventListener('click', () => {
  shown += PAGE;
  drawRows();
});
window.addEventListener('hashchange', route);
route();
