import type { LoadedLeg } from '../../load.js';
import type { JsonValue } from '../../schema.js';
import { syntheticCoordinates } from '../../../../tools/catalog/synthetic.js';
import { canonicalUrl } from '../../../../tools/store/canonical.js';
import { runChain, type ConcreteCall } from '../golden-calls.js';

/**
 * What the stand-in upstream knows about the world: the facts the legs' golden values were read from, keyed
 * the way an upstream request names them (tools/…/*.ts send the same keys whatever the tool that asks), so that
 * a tool answering from these upstreams gives each leg's golden values. Two legs that need different values for
 * one fact keep the first one's (a real upstream has one answer too): the later ones are listed as conflicts.
 */

export type FactValue = number | { [key: string]: JsonValue };

export interface PageFacts {
  url: string;
  title: string;
  facts: string[];
  links: string[];
}

export interface UpstreamFacts {
  /** Fact key (see factKeys) to value. */
  values: Map<string, FactValue>;
  /** `<leg id>#<stop index>` of every tool stop to the fact its golden value is read from. */
  stopFacts: Map<string, string>;
  /** Facts two legs disagree on: the key, the value kept, and `<leg>#<stop>: <value>` of each other. */
  conflicts: { key: string; kept: FactValue; others: string[] }[];
  /** Pages by canonical URL: every page stop's facts and onward links. */
  pages: Map<string, PageFacts>;
  /** Search queries of the legs' search bridges to the URL they should find first. */
  searches: Map<string, string>;
}

/** Text as upstreams match it: trimmed, white space collapsed, lower case. */
export const normText = (s: string): string => s.trim().replace(/\s+/g, ' ').toLowerCase();

const COORDS = /^\s*(-?\d+(?:\.\d+)?(?:e-?\d+)?)\s*,\s*(-?\d+(?:\.\d+)?(?:e-?\d+)?)\s*$/i;

/** A point as a key: both numbers to 6 decimals. */
export const pointKey = (lat: number, lng: number): string => `${lat.toFixed(6)},${lng.toFixed(6)}`;

/** A place as a request names it ("lat,lng" or text) as a key. */
export function placeKey(place: string): string {
  const m = COORDS.exec(place);
  return m ? pointKey(Number(m[1]), Number(m[2])) : normText(place);
}

/** Where the stand-in's geocoder puts an address: a stable made-up point per address. */
export function coordinatesOf(address: string): { lat: number; lng: number } {
  return syntheticCoordinates(normText(address));
}

/** The fact keys, one builder per kind of fact; the server builds the same keys from requests. */
export const factKeys = {
  elevation: (lat: number, lng: number) => `elevation ${pointKey(lat, lng)}`,
  placesCount: (query: string) => `places-count ${normText(query)}`,
  placesRating: (query: string) => `places-rating ${normText(query)}`,
  directions: (origin: string, destination: string, mode: string) => `directions ${placeKey(origin)} | ${placeKey(destination)} | ${mode}`,
  matrix: (origin: string, destination: string) => `matrix ${placeKey(origin)} | ${placeKey(destination)}`,
  weather: (lat: number, lng: number, date: string, variable: string) => `weather ${pointKey(lat, lng)} ${date} ${variable}`,
  population: (country: string) => `population ${normText(country)}`,
  area: (country: string) => `area ${normText(country)}`,
  stockClose: (ticker: string, date: string) => `stock-close ${ticker.toUpperCase()} ${date}`,
  stockVolume: (ticker: string, date: string) => `stock-volume ${ticker.toUpperCase()} ${date}`,
  cryptoClose: (symbol: string, date: string) => `crypto-close ${symbol.toUpperCase()} ${date}`,
  cryptoVolume: (symbol: string, date: string) => `crypto-volume ${symbol.toUpperCase()} ${date}`,
};

type Place = string | { latitude: number; longitude: number };
const placeText = (p: Place): string => (typeof p === 'string' ? p : `${p.latitude},${p.longitude}`);
const firstPoint = (v: unknown): { latitude: number; longitude: number } => (Array.isArray(v) ? v[0] : v) as { latitude: number; longitude: number };

/** The variable a weather selector reads (`daily.sunshine_duration[0]` -> sunshine_duration). */
export const selectedVariable = (selector: string): string | undefined => /^daily\.([a-z0-9_]+)\[0\]$/.exec(selector)?.[1];

/** The fact a golden chain's last call reads its value from; undefined for calls that read none. */
export function factOfCall(call: ConcreteCall, outputKey: string | null | undefined): string | undefined {
  const a = call.args as Record<string, any>;
  switch (call.tool) {
    case 'maps_elevation': {
      const p = firstPoint(a.locations);
      return factKeys.elevation(p.latitude, p.longitude);
    }
    case 'maps_search_places':
      return outputKey === 'place_rating' ? factKeys.placesRating(a.query) : factKeys.placesCount(a.query);
    case 'maps_directions':
      return factKeys.directions(placeText(a.origin), placeText(a.destination), a.mode ?? 'driving');
    case 'maps_distance_matrix':
      return factKeys.matrix(placeText(a.origins[0]), placeText(a.destinations[0]));
    case 'weather_historical': {
      const variable = selectedVariable(String((a.select ?? [])[0] ?? '')) ?? 'temperature_2m_max';
      return factKeys.weather(Number(a.latitude), Number(a.longitude), a.start_date ?? a.date, variable);
    }
    case 'countries_population':
      return factKeys.population(a.country);
    case 'countries_area':
      return factKeys.area(a.country);
    case 'stock_historical_price':
      return factKeys.stockClose(a.ticker, a.date);
    case 'stock_volume':
      return factKeys.stockVolume(a.ticker, a.date);
    case 'crypto_historical_price':
      return factKeys.cryptoClose(a.symbol, a.date);
    case 'crypto_volume':
      return factKeys.cryptoVolume(a.symbol, a.date);
    default:
      return undefined;
  }
}

const titleOf = (url: string): string => decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).pop() ?? url).replace(/_/g, ' ');

/** The stand-in's geocoding answer as a golden chain's wiring reads it. */
const geocodeText = (address: string): string => JSON.stringify({ results: [{ location: coordinatesOf(address) }] });

/** Every fact the legs' golden chains, pages and search bridges read. */
export async function collectFacts(legs: readonly LoadedLeg[]): Promise<UpstreamFacts> {
  const facts: UpstreamFacts = { values: new Map(), stopFacts: new Map(), conflicts: [], pages: new Map(), searches: new Map() };
  const conflicts = new Map<string, { key: string; kept: FactValue; others: string[] }>();
  const page = (url: string): PageFacts => {
    const key = canonicalUrl(url);
    let p = facts.pages.get(key);
    if (!p) facts.pages.set(key, (p = { url: key, title: titleOf(key), facts: [], links: [] }));
    return p;
  };
  for (const { id, leg } of legs) {
    page(leg.seed_url);
    for (const stop of leg.stops) {
      if (stop.stop_type === 'page' && stop.page_url) {
        const p = page(stop.page_url);
        const value = typeof stop.extracted_value === 'string' ? stop.extracted_value : JSON.stringify(stop.extracted_value);
        const line = `${stop.extraction_target}: ${value}`;
        if (!p.facts.includes(line)) p.facts.push(line);
        if (stop.bridge.target_url && !p.links.includes(stop.bridge.target_url)) p.links.push(stop.bridge.target_url);
        const found = stop.bridge.expected_result_url ?? stop.bridge.target_url;
        if (stop.bridge.search_query && found && !facts.searches.has(normText(stop.bridge.search_query))) facts.searches.set(normText(stop.bridge.search_query), found);
      }
      if (stop.stop_type !== 'tool') continue;
      const chain = stop.bridge.tool_chain;
      if (!chain.length || chain[chain.length - 1].tool_name === 'python_execute_code') continue;
      let position = 0;
      await runChain(chain, async (call) => {
        const step = chain[position++];
        if (call.tool === 'maps_geocode') return geocodeText(String(call.args.address));
        if (position < chain.length) return '';
        const key = factOfCall(call, step.output_key);
        const value = stop.extracted_value;
        if (!key || (typeof value !== 'number' && (value === null || typeof value !== 'object' || Array.isArray(value)))) return '';
        const where = `${id}#${stop.index}`;
        facts.stopFacts.set(where, key);
        const kept = facts.values.get(key);
        if (kept === undefined) facts.values.set(key, value as FactValue);
        else if (JSON.stringify(kept) !== JSON.stringify(value)) {
          let c = conflicts.get(key);
          if (!c) conflicts.set(key, (c = { key, kept, others: [] }));
          c.others.push(`${where}: ${JSON.stringify(value)}`);
        }
        return '';
      });
    }
  }
  facts.conflicts = [...conflicts.values()];
  return facts;
}

/** A change of one fact: the fact behind a leg's tool stop (`<leg id>#<stop index>`), or a fact key. */
export interface Drift {
  stop?: string;
  key?: string;
  value: FactValue;
}

/** Applies drifts; returns the keys changed. An unknown stop or key is an error naming it. */
export function applyDrift(facts: UpstreamFacts, drifts: readonly Drift[]): string[] {
  return drifts.map((d) => {
    const key = d.key ?? (d.stop ? facts.stopFacts.get(d.stop) : undefined);
    if (!key || !facts.values.has(key)) throw new Error(`drift ${JSON.stringify(d)}: no fact ${d.stop ? `behind tool stop ${d.stop}` : `with key ${d.key}`}`);
    facts.values.set(key, d.value);
    return key;
  });
}
