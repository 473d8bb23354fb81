import type { Cell, ColumnFormat, TrialRow } from '../model.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const esc = (s: unknown): string => String(s == null ? '' : s).replace(/[&<>"']/g, (c) => ENTITIES[c]);

export function fmt(v: Cell | undefined, format: ColumnFormat): string {
  if (v === null || v === undefined || v === '') return '–';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v !== 'number') return String(v);
  if (format === 'pct') return (100 * v).toFixed(0) + '%';
  if (format === 'usd') return '$' + v.toFixed(4);
  if (format === 'int') return Number.isInteger(v) ? String(v) : v.toFixed(1);
  return String(v);
}

/** A fixed column (agent, task...) or one of the family's cells. */
export const value = (row: TrialRow, key: string): Cell | undefined => (key in row ? (row as unknown as Record<string, Cell>)[key] : row.cells[key]);

export const trialHref = (id: string): string => '#trial/' + encodeURIComponent(id);

/** An element the page's HTML always has (page.ts). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error('the report page has no #' + id);
  return element as T;
}
