/**
 * The exact text agents see for each tool, built from structured data. The synthetic-world generator uses
 * these same builders, so a shape changed here changes it everywhere.
 *
 * Conventions: data tools answer with JSON pretty-printed with a 2-space indent, keys in the order written
 * below; a field with no value is `null` (never left out) unless marked optional. Canonical units: distances
 * in km, durations in minutes, elevations in meters, temperatures in deg C (weather keeps Open-Meteo's
 * `*_units` objects alongside the data). fetch_webpage answers with Markdown.
 */
import type { ToolResult } from './types.js';

export const jsonText = (value: unknown): string => JSON.stringify(value, null, 2);

export function okResult(text: string, resolvedUrl?: string): ToolResult {
  return resolvedUrl === undefined ? { ok: true, text } : { ok: true, text, resolvedUrl };
}

/**
 * `{ok: false, text: "Error: <message>"}`; `providerError` is the upstream detail kept for the log;
 * `transient` marks a failure that may not recur (the gateway neither caches nor records it).
 */
export function errorResult(message: string, providerError?: string, options: { transient?: boolean } = {}): ToolResult {
  const text = message.startsWith('Error: ') ? message : `Error: ${message}`;
  return {
    ok: false,
    text,
    ...(providerError === undefined ? {} : { providerError }),
    ...(options.transient ? { transient: true } : {}),
  };
}

// ---- unit conversions (shared so every source rounds the same way) ----

/** Meters to km, to the meter (169850 -> 169.85). */
export const metersToKm = (meters: number): number => Math.round(meters) / 1000;
/** Seconds to minutes, to a tenth of a minute (21930 -> 365.5). */
export const secondsToMinutes = (seconds: number): number => Math.round(seconds / 6) / 10;
/** Prices: cents at 1 and above (17.549999 -> 17.55), 6 decimals below. */
export const roundPrice = (price: number): number => (Math.abs(price) >= 1 ? Math.round(price * 100) / 100 : Math.round(price * 1e6) / 1e6);

// ---- maps ----

export interface LatLng {
  lat: number;
  lng: number;
}

/** maps_geocode: `{"results":[{"formatted_address","location":{"lat","lng"},"place_id"}]}` (best match first, at most 5). */
export interface GeocodeResult {
  formatted_address: string;
  location: LatLng;
  place_id: string;
}
export const formatGeocode = (results: GeocodeResult[]): string => jsonText({ results });

export interface AddressComponent {
  long_name: string;
  short_name: string;
  types: string[];
}
/**
 * maps_reverse_geocode: `{"results":[{"formatted_address","location","place_id","types","address_components":
 * [{"long_name","short_name","types"}]}]}` (most precise first, at most 5).
 */
export interface ReverseGeocodeResult extends GeocodeResult {
  types: string[];
  address_components: AddressComponent[];
}
export const formatReverseGeocode = (results: ReverseGeocodeResult[]): string => jsonText({ results });

/** maps_elevation: `{"results":[{"elevation" (m),"location":{"lat","lng"},"resolution" (m, or null)}]}`, one per point in order. */
export interface ElevationResult {
  elevation: number;
  location: LatLng;
  resolution: number | null;
}
export const formatElevation = (results: ElevationResult[]): string => jsonText({ results });

/**
 * maps_search_places: `{"count":N,"places":[{"name","formatted_address","location","place_id","rating",
 * "user_ratings_total","types"}]}` in the upstream's order (one page, at most 20); `count` is places.length.
 */
export interface PlaceSummary {
  name: string;
  formatted_address: string | null;
  location: LatLng | null;
  place_id: string;
  rating: number | null;
  user_ratings_total: number | null;
  types: string[];
}
export const formatPlaces = (places: PlaceSummary[]): string => jsonText({ count: places.length, places });

/**
 * maps_place_details: `{"place_id","name","formatted_address","location","formatted_phone_number","website",
 * "rating","user_ratings_total","opening_hours" (list of "Monday: 9:00 AM – 5:00 PM" lines),"types","url"}`.
 */
export interface PlaceDetails {
  place_id: string;
  name: string | null;
  formatted_address: string | null;
  location: LatLng | null;
  formatted_phone_number: string | null;
  website: string | null;
  rating: number | null;
  user_ratings_total: number | null;
  opening_hours: string[] | null;
  types: string[];
  url: string | null;
}
export const formatPlaceDetails = (place: PlaceDetails): string => jsonText(place);

/**
 * maps_distance_matrix: `{"origin_addresses","destination_addresses","rows":[{"elements":[{"status","distance_km",
 * "duration_min"}]}]}`: one row per origin, one element per destination; distance/duration null unless status is OK.
 */
export interface MatrixElement {
  status: string;
  distance_km: number | null;
  duration_min: number | null;
}
export interface DistanceMatrix {
  origin_addresses: string[];
  destination_addresses: string[];
  rows: { elements: MatrixElement[] }[];
}
export const formatDistanceMatrix = (m: DistanceMatrix): string =>
  jsonText({ origin_addresses: m.origin_addresses, destination_addresses: m.destination_addresses, rows: m.rows });

/**
 * maps_directions: `{"routes":[{"summary","distance_km","duration_min","steps":[{"instruction" (plain text),
 * "distance_km","duration_min"}]}]}`; `routes` is empty when there is no route.
 */
export interface RouteStep {
  instruction: string;
  distance_km: number;
  duration_min: number;
}
export interface Route {
  summary: string;
  distance_km: number;
  duration_min: number;
  steps: RouteStep[];
}
export const formatDirections = (routes: Route[]): string => jsonText({ routes });

// ---- weather ----

/**
 * weather_historical without `select`: `{"latitude","longitude","elevation","timezone","daily_units":{...},
 * "daily":{"time":[...],"<variable>":[...]}}`, the Open-Meteo archive response minus its timing metadata.
 * weather_forecast adds `"current_units"` and `"current"` before `daily_units`. Units are Open-Meteo's:
 * deg C, mm, cm (snowfall), s (durations), km/h, ISO 8601 local times.
 * With `select`: `{"<selector>": value, ...}` in the order given, e.g. `{"daily.sunshine_duration[0]": 2327.99}`.
 */
export const formatWeather = (data: object): string => jsonText(data);
export const formatSelected = (values: Record<string, unknown>): string => jsonText(values);

// ---- countries ----

/** countries_population: `{"country" (common name),"population" (integer)}`. */
export const formatCountryPopulation = (country: string, population: number): string => jsonText({ country, population });
/** countries_area: `{"country" (common name),"area_km2"}`. */
export const formatCountryArea = (country: string, areaKm2: number): string => jsonText({ country, area_km2: areaKm2 });

// ---- finance ----

/**
 * stock_historical_price: `{"ticker","date" (the trading day used),"close_price" (adjusted for splits and
 * dividends, as yfinance reports it; see roundPrice),"currency"}`.
 */
export const formatStockPrice = (ticker: string, date: string, closePrice: number, currency: string): string =>
  jsonText({ ticker, date, close_price: roundPrice(closePrice), currency });
/** stock_volume: `{"ticker","date" (the trading day used),"volume" (integer, shares)}`. */
export const formatStockVolume = (ticker: string, date: string, volume: number): string => jsonText({ ticker, date, volume: Math.round(volume) });

/** crypto_historical_price: `{"symbol","date","close_price"}` (quote asset, as the exchange reports it). */
export const formatCryptoPrice = (symbol: string, date: string, closePrice: number): string => jsonText({ symbol, date, close_price: closePrice });
/** crypto_volume: `{"symbol","date","volume" (base asset),"quote_volume" (quote asset)}`. */
export const formatCryptoVolume = (symbol: string, date: string, volume: number, quoteVolume: number): string =>
  jsonText({ symbol, date, volume, quote_volume: quoteVolume });

// ---- web ----

export interface OrganicResult {
  title: string;
  link: string;
  snippet: string;
  position: number;
}
/** Present keys only. */
export interface AnswerBox {
  title?: string;
  answer?: string;
  snippet?: string;
  link?: string;
}
/** Present keys only; `attributes` maps labels to values ("Height": "8,849 m"). */
export interface KnowledgeGraph {
  title?: string;
  type?: string;
  description?: string;
  website?: string;
  attributes?: Record<string, string>;
}
/** web_search: `{"organic":[{"title","link","snippet","position"}],"answerBox"?,"knowledgeGraph"?}`. */
export function formatWebSearch(organic: OrganicResult[], answerBox?: AnswerBox, knowledgeGraph?: KnowledgeGraph): string {
  return jsonText({ organic, ...(answerBox ? { answerBox } : {}), ...(knowledgeGraph ? { knowledgeGraph } : {}) });
}

/**
 * fetch_webpage (Markdown): `# <resolved title>`, a blank line, `Source: <resolved url>`, for Wikipedia a
 * `Language editions: N` line (the article's language links), a blank line, then the page as Markdown.
 * text/plain and JSON pages, and `raw_html: true`, are returned as the body alone, unchanged.
 */
export function formatPage(title: string, url: string, markdown: string, languageEditions?: number): string {
  const head = [`# ${title}`, '', `Source: ${url}`];
  if (languageEditions !== undefined) head.push(`Language editions: ${languageEditions}`);
  return `${head.join('\n')}\n\n${markdown.trim()}\n`;
}
