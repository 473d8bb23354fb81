/**
 * What a clean tool input looks like (shared by the audit and the generation pipeline): dates read from
 * page text, and place names an API can geocode.
 */

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** A full date in a value ("12 May 1734", "May 12, 1734", "1734-05-12") as ISO, or null. */
export function isoDate(value: string): string | null {
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/.exec(value);
  const dmy = /\b(\d{1,2})\s+([A-Za-z]+)\s+(\d{4})\b/.exec(value);
  const mdy = /\b([A-Za-z]+)\s+(\d{1,2}),?\s+(\d{4})\b/.exec(value);
  let y: number, m: number, d: number;
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (dmy && MONTHS.includes(dmy[2]!.toLowerCase())) [y, m, d] = [Number(dmy[3]), MONTHS.indexOf(dmy[2]!.toLowerCase()) + 1, Number(dmy[1])];
  else if (mdy && MONTHS.includes(mdy[1]!.toLowerCase())) [y, m, d] = [Number(mdy[3]), MONTHS.indexOf(mdy[1]!.toLowerCase()) + 1, Number(mdy[2])];
  else return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d || y < 1) return null;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** A place name an API can geocode: letters, at most 80 characters, no markup, not a URL, a date or a number. */
export function isGeocodable(name: string): boolean {
  const n = name.trim();
  return n.length >= 2 && n.length <= 80 && /\p{L}/u.test(n) && !/[[\]{}|<>*_#]|https?:/.test(n) && isoDate(n) === null && !/^\d[\d\s.,]*$/.test(n);
}

/** Why a text input is not clean (wiki or Markdown markup, a citation mark, stray space, a null spelled out), or undefined. */
export function uncleanReason(value: string): string | undefined {
  if (value !== value.trim()) return 'leading or trailing white space';
  if (!value) return 'empty';
  if (/\n/.test(value)) return 'a line break';
  if (/^(none|null|nan|undefined|n\/a)$/i.test(value)) return `"${value}" stands for no value`;
  if (/\[\[|\]\]|\]\(|\{\{|\}\}|<\/?[a-z]/i.test(value)) return 'wiki, Markdown or HTML markup';
  if (/\[(\d+|note \d+|citation needed)\]/i.test(value)) return 'a citation mark';
  if (/(^|\s)\|(\s|$)/.test(value)) return 'a table cell separator';
  return undefined;
}
