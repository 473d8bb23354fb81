import type { ChainInputs, DraftLeg, FinishOp } from '../draft.js';
import type { Crawl } from '../steps/crawl.js';
import { REFERENCE_DATE } from '../steps/templates.js';
import { TRANSFORM_WORDS } from '../steps/reason-code.js';

/**
 * What each clue must say, stop by stop (clue N is stop N), in words that point to pages and inputs
 * without naming them: a page by what it is (its first sentence without its title) and how it is reached,
 * a roadblock's input by the page and field that hold it. The template verbalizer (template.ts) and a
 * model (verbalize.ts) both write the riddle from this view.
 */

export type ClueStop =
  | { n: number; kind: 'page'; via: 'start' | 'link' | 'search'; from: number | null; place: string; ask: string }
  | { n: number; kind: 'lookup'; ask: string }
  | { n: number; kind: 'detour'; of: number; transform: string }
  | { n: number; kind: 'merge'; op: 'add' | 'abs_diff'; a: number; b: number }
  | { n: number; kind: 'finish'; op: FinishOp; clues: number[] };

export interface ClueView {
  stops: ClueStop[];
  /** Titles no clue may write (the authors' rule, audit/title-leaks.ts). */
  forbidden: string[];
}

const STOP_WORDS = new Set(['of', 'in', 'on', 'the', 'by', 'for', 'and', 'to', 'at', 'from', 'near', 'with', 'a', 'an', 'its', 'known', 'whose', 'as', 'is', 'was', 'best', 'founded', 'called', 'named', 'under', 'into', 'over']);

/** A phrase with every forbidden title cut out (the phrase ends before the first one, its dangling words dropped). */
export function withoutTitles(phrase: string, forbidden: readonly string[]): string {
  const lower = phrase.toLowerCase();
  const cut = Math.min(...forbidden.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0), phrase.length);
  const words = phrase.slice(0, cut).replace(/[,;:(]\s*$/, '').trim().split(/\s+/).filter(Boolean);
  while (words.length && STOP_WORDS.has(words.at(-1)!.toLowerCase().replace(/[,;]$/, ''))) words.pop();
  return words.join(' ').replace(/[,;]$/, '');
}

/** How a chain's inputs are found, in words ("the place given as the Location on the page of clue 3"). */
function inputWords(c: ChainInputs, clueOf: (id: string) => number): { what: string; when: string; other: string } {
  const on = clueOf(c.fromId);
  const what =
    c.field === 'coordinates'
      ? `the place the page of clue ${on} describes`
      : c.field === 'title'
        ? `the country the page of clue ${on} is about`
        : /ticker|traded|symbol/i.test(c.field)
          ? `the symbol the page of clue ${on} gives under "${c.field}"`
          : /country|nation|state/i.test(c.field)
            ? `the country the page of clue ${on} names under "${c.field}"`
            : `the place given as its ${c.field.toLowerCase()} on the page of clue ${on}`;
  const when = !c.date ? '' : 'fixed' in c.date ? `on ${c.date.fixed}` : `on the full date the page of clue ${on} gives as "${c.date.key}"`;
  const other = !c.other ? '' : c.other.field === 'coordinates' ? `the place the page of clue ${clueOf(c.other.fromId)} describes` : `the place given as its ${c.other.field.toLowerCase()} on the page of clue ${clueOf(c.other.fromId)}`;
  return { what, when, other };
}

/** What a template chain looks up, in words that name the kind of lookup (elevation, rating...) but no tool. */
export function lookupWords(c: ChainInputs, clueOf: (id: string) => number): string {
  const { what, when, other } = inputWords(c, clueOf);
  switch (c.template) {
    case 'geocode_elevation': return `Look up the elevation (height above sea level, in metres) of ${what}.`;
    case 'geocode_weather_historical': return `Find the maximum temperature (deg C) recorded at ${what} ${when}.`;
    case 'geocode_weather_precipitation': return `Find the total precipitation (mm of rain) recorded at ${what} ${when}.`;
    case 'historical_snowfall': return `Find how much snow fell (snowfall, cm) at ${what} ${when}.`;
    case 'historical_sunshine': return `Find the sunshine duration (in seconds) at ${what} ${when}.`;
    case 'geocode_distance': return `Find the driving distance in km from ${what} to ${other}.`;
    case 'geocode_directions_duration': return `Find the driving time in minutes for a drive from ${what} to ${other}.`;
    case 'date_computation': return `Count the days between the full date the page of clue ${clueOf(c.fromId)} gives as "${c.date && 'key' in c.date ? c.date.key : 'date'}" and ${REFERENCE_DATE}.`;
    case 'math_conversion': return `Convert the ${c.field.toLowerCase()} the page of clue ${clueOf(c.fromId)} gives, in metres, to whole feet (multiply by 3.28084 and drop the decimals).`;
    case 'nearby_poi_count': return `Count the ${c.poi ?? 'museums'} a map search finds nearby ${what}.`;
    case 'place_rating': return `Find the star rating that map reviews give ${what}.`;
    case 'country_population': return `Find the population (how many people live) of ${what}.`;
    case 'country_area': return `Find the area in square kilometres of ${what}.`;
    case 'stock_price': return `Find the closing share price of the stock with ${what}, ${when}.`;
    case 'stock_volume': return `Find the trading volume of the shares of the stock with ${what}, ${when}.`;
    case 'crypto_price': return `Find the closing price of the currency with ${what}, paired with USDT (the symbol then USDT), ${when}.`;
    default: return `Find the 24h trading volume of the currency with ${what}, paired with USDT (the symbol then USDT), ${when}.`;
  }
}

export function clueView(draft: DraftLeg, crawl: Crawl, forbidden: string[]): ClueView {
  const clueOf = (id: string): number => draft.stops.findIndex((s) => s.id === id) + 1;
  let previousPage: number | null = null;
  const stops = draft.stops.map((s, i): ClueStop => {
    const n = i + 1;
    const role = s.role;
    if (role.kind === 'page') {
      const page = crawl.pages.get(s.pageUrl!)!;
      const prevStop = previousPage === null ? undefined : draft.stops[previousPage - 1];
      const via = previousPage === null ? 'start' : prevStop?.bridge?.type === 'search_query' ? 'search' : 'link';
      const place = withoutTitles(page.description, forbidden) || 'the page it leads to';
      const from = previousPage;
      previousPage = n;
      return { n, kind: 'page', via, from, place, ask: withoutTitles(role.fact.target, forbidden) || 'the figure it gives' };
    }
    if (role.kind === 'roadblock' || role.kind === 'branch') return { n, kind: 'lookup', ask: lookupWords(role, clueOf) };
    if (role.kind === 'detour') return { n, kind: 'detour', of: clueOf(s.sourceId!), transform: TRANSFORM_WORDS[s.transform!] };
    if (role.kind === 'merge') return { n, kind: 'merge', op: role.op, a: clueOf(s.deps[0]!), b: clueOf(s.deps[1]!) };
    return { n, kind: 'finish', op: role.op, clues: s.deps.map(clueOf) };
  });
  return { stops, forbidden };
}
