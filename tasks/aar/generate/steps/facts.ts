import { isGeocodable, isoDate } from '../../audit/inputs.js';
import type { Entity, Fact, PageInfo } from '../draft.js';

export { isGeocodable, isoDate };

/**
 * The facts a route-info stop can extract from a page without a model: infobox fields (numbers, dates,
 * short texts) and, for cross-section extraction, the number of entries a section lists. Prose facts
 * need a model (extract.ts). Also the entities a roadblock can start from (a place, a country, a ticker).
 */

/** The number a value states ("48,213", "212 m", "31.4 km2", "2,874 m"), or null (coordinates, ranges, text). */
export function numberIn(value: string): number | null {
  const v = value.replace(/\u00a0/g, ' ').trim();
  if (/°|\d\s*[–—-]\s*\d|:/.test(v)) return null;
  const m = /^[+]?(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?(?:\s*[A-Za-z0-9/%²³]*(?:\s+[a-z]+)?)?$/.exec(v);
  if (!m) return null;
  const n = Number(`${m[1]!.replace(/,/g, '')}${m[2] ?? ''}`);
  return Number.isFinite(n) ? n : null;
}

/** What a field gives, in words that do not name the field itself (as the paper's verbalizer asks). */
const TARGETS: [RegExp, string][] = [
  [/^population$/i, 'how many people live there'],
  [/^(elevation|altitude)$/i, 'how high above sea level it lies, in metres'],
  [/^area$/i, 'how large it is, in square kilometres'],
  [/^(founded|established)$/i, 'the year it came into being'],
  [/^(opened|first held|launched|built|consecrated)$/i, 'the year it first opened or began'],
  [/^born$/i, 'the year this person came into the world'],
  [/^died$/i, 'the year this person died'],
  [/^first ascent$/i, 'the year its summit was first reached'],
  [/^(length|main span)$/i, 'how long it is, by its own figure'],
  [/^(height|max depth|prominence)$/i, 'the vertical measure its summary gives, in metres'],
  [/^(employees|students|visitors|supply)$/i, 'the headcount or tally its summary box reports'],
];

function targetFor(key: string, kind: 'number' | 'date' | 'text'): string {
  const known = TARGETS.find(([re]) => re.test(key.trim()));
  if (known) return known[1];
  if (kind === 'date') return `the year given for its ${key.toLowerCase()}`;
  return `the figure its summary box gives for ${key.toLowerCase()}`;
}

/** Infobox facts, in infobox order. */
export function infoboxFacts(page: PageInfo): Fact[] {
  const facts: Fact[] = [];
  for (const { key, value } of page.infobox) {
    if (!value || value.length > 60 || /^coord/i.test(key)) continue;
    const iso = isoDate(value);
    const number = iso ? Number(iso.slice(0, 4)) : numberIn(value);
    // A date is extracted as its year (a number the detours and the finish line can use); the full date stays for the templates.
    if (iso) facts.push({ key, value, extracted: number!, valueType: 'date', number, iso, kind: 'infobox', section: null, target: targetFor(key, 'date'), by: 'infobox' });
    else if (number !== null) facts.push({ key, value, extracted: number, valueType: 'number', number: Math.trunc(number), iso: null, kind: 'infobox', section: null, target: targetFor(key, 'number'), by: 'infobox' });
  }
  return facts;
}

/** Cross-section facts: how many entries a section lists. */
export function sectionFacts(page: PageInfo): Fact[] {
  return page.sections
    .filter((s) => s.items.length >= 2)
    .map((s) => ({ key: s.heading, value: String(s.items.length), extracted: s.items.length, valueType: 'number' as const, number: s.items.length, iso: null, kind: 'cross_section' as const, section: s.heading, target: `how many entries are listed in its section on ${s.heading.toLowerCase()}`, by: 'section' as const }));
}

const firstPart = (value: string): string => value.split(',')[0]!.trim();

/** The entities a page offers a roadblock: where it is, its country, its ticker or crypto pair. */
export function pageEntities(page: PageInfo): Entity[] {
  const out: Entity[] = [];
  const field = (re: RegExp) => page.infobox.find((f) => re.test(f.key));
  const where = field(/^(location|headquarters|birthplace|birth place|city|venue)$/i);
  if (where && isGeocodable(firstPart(where.value))) out.push({ kind: 'location', value: firstPart(where.value), field: where.key });
  else if (field(/^coord/i) && isGeocodable(page.title)) out.push({ kind: 'location', value: page.title, field: 'coordinates' });
  const country = field(/^(country|nation|sovereign state)$/i);
  if (country) out.push({ kind: 'country', value: firstPart(country.value), field: country.key });
  else if (field(/^capital$/i) && field(/^population$/i)) out.push({ kind: 'country', value: page.title, field: 'title' });
  const traded = field(/^(traded as|ticker symbol|stock symbol)$/i);
  const ticker = traded && /(?:^|[:\s])([A-Z]{1,5})\s*$/.exec(traded.value);
  if (ticker) out.push({ kind: 'ticker', value: ticker[1]!, field: traded!.key });
  const symbol = field(/^symbol$/i);
  if (symbol && /^[A-Z]{2,6}$/.test(symbol.value.trim())) out.push({ kind: 'crypto', value: `${symbol.value.trim()}USDT`, field: symbol.key });
  return out;
}
