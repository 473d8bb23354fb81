/**
 * The trials table's filters and sort, kept in the URL's hash after a `?` (`#trials?agent=x&outcome=wrong`,
 * `#trial/<id>?outcome=wrong`), so a reload, a shared link and a trial page's previous/next keep them.
 */
import type { ReportData, TrialRow } from '../model.js';
import { value } from './format.js';

/** The filters; `coarse` and `fine` are the family's two slice keys, and go by their names in the URL (AAR: `variant=`, `level=`). */
export const FILTER_KEYS = ['agent', 'coarse', 'fine', 'status', 'outcome'] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export interface ViewState {
  text: string;
  filters: Record<FilterKey, string>;
  sort: string | null;
  desc: boolean;
}

export const emptyState = (): ViewState => ({ text: '', filters: { agent: '', coarse: '', fine: '', status: '', outcome: '' }, sort: null, desc: false });

/** A filter's name in the URL: the slice filters by the family's keys. */
const paramOf = (key: FilterKey, [coarse, fine]: readonly [string, string]): string => (key === 'coarse' ? coarse : key === 'fine' ? fine : key);

/** The hash split into its route (`trials`, `trial/<id>`, a section id) and the state after `?`. */
export function parseHash(hash: string, sliceKeys: readonly [string, string]): { route: string; state: ViewState } {
  const raw = hash.replace(/^#/, '');
  const at = raw.indexOf('?');
  const route = at < 0 ? raw : raw.slice(0, at);
  const params = new URLSearchParams(at < 0 ? '' : raw.slice(at + 1));
  const state = emptyState();
  state.text = params.get('q') || '';
  FILTER_KEYS.forEach((k) => {
    state.filters[k] = params.get(paramOf(k, sliceKeys)) || '';
  });
  state.sort = params.get('sort');
  state.desc = params.get('desc') === '1';
  return { route, state };
}

/** The state as the part after `?` ('' when nothing is set). */
export function stateQuery(state: ViewState, sliceKeys: readonly [string, string]): string {
  const params = new URLSearchParams();
  if (state.text) params.set('q', state.text);
  FILTER_KEYS.forEach((k) => {
    if (state.filters[k]) params.set(paramOf(k, sliceKeys), state.filters[k]);
  });
  if (state.sort) params.set('sort', state.sort);
  if (state.sort && state.desc) params.set('desc', '1');
  const query = params.toString();
  return query ? '?' + query : '';
}

function outcomeOf(row: TrialRow): string {
  return row.correct === null ? 'unscored' : row.correct ? 'correct' : 'wrong';
}

/** The rows the state shows, in its order. */
export function filteredRows(data: ReportData, state: ViewState): TrialRow[] {
  const text = state.text.trim().toLowerCase();
  const f = state.filters;
  const rows = data.rows.filter((r) => {
    if (f.agent && r.agent !== f.agent) return false;
    if (f.coarse && r.coarse !== f.coarse) return false;
    if (f.fine && r.fine !== f.fine) return false;
    if (f.status && r.status !== f.status) return false;
    if (f.outcome && outcomeOf(r) !== f.outcome) return false;
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
