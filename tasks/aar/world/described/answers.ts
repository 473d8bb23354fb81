import { formatDirections, formatDistanceMatrix, formatElevation, formatGeocode, formatPlaces } from '../../../../tools/catalog/maps-formats.js';
import { formatCountryArea, formatCountryPopulation } from '../../../../tools/catalog/countries.js';
import { formatCryptoPrice, formatCryptoVolume, formatStockPrice, formatStockVolume } from '../../../../tools/catalog/finance.js';
import { syntheticHash } from '../../../../tools/catalog/synthetic.js';
import { formatSelected, formatWeather } from '../../../../tools/catalog/weather.js';
import { formatWebSearch } from '../../../../tools/catalog/web.js';
import { errorResult, jsonText, okResult, pyRound } from '../../../../tools/providers/formats.js';
import { selectPaths } from '../../../../tools/providers/select-path.js';
import type { ToolResult } from '../../../../tools/providers/types.js';
import { canonicalUrl } from '../../../../tools/store/canonical.js';
import { distanceText, durationText, haversine } from '../upstream/reply.js';
import { renderPage } from './pages.js';
import type { World, WorldPlace } from './schema.js';

/**
 * The fake APIs of a described world: each tool's answer computed from the world's facts, in the tool's
 * own format (tools/catalog: routes in Google's meters and seconds, Serper's whole answer, weather selectors
 * giving null where they lead nowhere), the same for the same call. A call outside the world's domain (an unknown
 * page, a tool the world does not serve) has no answer: the replay store then misses, as for an
 * unrecorded call.
 */

type Args = Record<string, unknown>;
const key = (s: string): string => s.trim().toLowerCase();
const round = (x: number, digits: number): number => Math.round(x * 10 ** digits) / 10 ** digits;
/** Roads are this much longer than the great circle, driven at this speed (m/s: 70 km/h). */
const ROAD_FACTOR = 1.3;
const ROAD_SPEED = 70_000 / 3600;
/** The first day the weather archive holds (as Open-Meteo's). */
const ARCHIVE_START = '1940-01-01';
/** A stable number in [0, 1) for a call's parts. */
const unit = (...parts: string[]): number => syntheticHash(parts.join('\u0000')) / 2 ** 32;

export class WorldAnswers {
  private readonly pages = new Map<string, { title: string; text: string }>();
  private readonly places = new Map<string, WorldPlace>();

  constructor(readonly world: World) {
    for (const page of world.pages) {
      const { url, text } = renderPage(world, page);
      this.pages.set(url, { title: page.title, text });
    }
    for (const place of world.places) for (const n of [place.name, ...place.aliases]) this.places.set(key(n), place);
  }

  /** The answer to a call (arguments as the tool's schema normalised them), or undefined when the world has none. */
  answer(tool: string, args: Args): ToolResult | undefined {
    switch (tool) {
      case 'fetch_webpage':
        return this.page(String(args.url));
      case 'web_search':
        return this.search(String(args.query));
      case 'maps_geocode': {
        const place = this.places.get(key(String(args.address)));
        return okResult(formatGeocode(place ? [{ formatted_address: place.name, location: { lat: place.lat, lng: place.lng }, place_id: `world-${syntheticHash(place.name).toString(36)}` }] : []));
      }
      case 'maps_elevation':
        return okResult(formatElevation((args.locations as { latitude: number; longitude: number }[]).map((p) => ({ elevation: this.elevationAt(p.latitude, p.longitude), location: { lat: p.latitude, lng: p.longitude }, resolution: 9.54 }))));
      case 'maps_search_places':
        return this.searchPlaces(String(args.query));
      case 'maps_distance_matrix':
      case 'maps_directions':
        return this.route(tool, args);
      case 'weather_historical':
        return this.weather(args);
      case 'countries_population':
      case 'countries_area':
        return this.country(tool, String(args.country));
      case 'stock_historical_price':
      case 'stock_volume':
      case 'crypto_historical_price':
      case 'crypto_volume':
        return this.market(tool, String(args.ticker ?? args.symbol), String(args.date));
      default:
        return undefined;
    }
  }

  private page(url: string): ToolResult | undefined {
    const u = new URL(url);
    if (u.pathname === '/w/api.php' && u.searchParams.get('list') === 'random') {
      const random = this.world.pages.map((p) => ({ id: syntheticHash(p.title) % 1_000_000, ns: 0, title: p.title }));
      return okResult(jsonText({ batchcomplete: '', query: { random } }));
    }
    const page = this.pages.get(canonicalUrl(url));
    return page ? okResult(page.text, canonicalUrl(url)) : undefined;
  }

  private search(query: string): ToolResult {
    const words = new Set(key(query).split(/\W+/).filter((w) => w.length > 2));
    const scored = this.world.pages
      .map((p) => ({ p, score: key(`${p.title} ${p.title} ${p.intro}`).split(/\W+/).filter((w) => words.has(w)).length }))
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score || a.p.title.localeCompare(b.p.title))
      .slice(0, 5);
    const organic = scored.map(({ p }, i) => ({ title: `${p.title} - Wikipedia`, link: canonicalUrl(`${this.world.wiki}${p.title.replace(/ /g, '_')}`), snippet: p.intro.replace(/\[\[(?:[^\]|]+\|)?([^\]]+)\]\]/g, '$1').replace(/'''/g, '').slice(0, 160), position: i + 1 }));
    const searchParameters = { q: query, location: 'United States', gl: 'us', hl: 'en', type: 'search', num: organic.length, engine: 'google' };
    return okResult(formatWebSearch({ searchParameters, organic }));
  }

  private nearest(lat: number, lng: number): WorldPlace | undefined {
    return this.world.places.find((p) => Math.abs(p.lat - lat) < 1e-4 && Math.abs(p.lng - lng) < 1e-4);
  }

  private elevationAt(lat: number, lng: number): number {
    return this.nearest(lat, lng)?.elevation ?? round(2000 * unit('terrain', String(lat), String(lng)), 2);
  }

  private searchPlaces(query: string): ToolResult {
    const near = /^(.+?)\s+near\s+(.+)$/i.exec(query.trim());
    if (near) {
      const place = this.places.get(key(near[2]!));
      const kind = key(near[1]!);
      const count = place?.pois[kind] ?? 0;
      return okResult(formatPlaces(Array.from({ length: count }, (_, i) => ({ name: `${near[1]} ${i + 1} of ${place!.name}`, formatted_address: place!.name, location: { lat: round(place!.lat + (i + 1) * 0.001, 5), lng: place!.lng }, place_id: `world-${syntheticHash(`${kind}/${place!.name}/${i}`).toString(36)}`, rating: null, user_ratings_total: null, types: [kind] }))));
    }
    const place = this.places.get(key(query));
    const found = place ? [{ name: place.name, formatted_address: place.name, location: { lat: place.lat, lng: place.lng }, place_id: `world-${syntheticHash(place.name).toString(36)}`, rating: place.rating ?? null, user_ratings_total: place.rating === undefined ? null : 120, types: ['point_of_interest'] }] : [];
    return okResult(formatPlaces(found));
  }

  private point(value: unknown): { lat: number; lng: number } | undefined {
    if (typeof value === 'string') {
      const place = this.places.get(key(value));
      return place && { lat: place.lat, lng: place.lng };
    }
    const p = value as { latitude?: number; longitude?: number } | undefined;
    return typeof p?.latitude === 'number' && typeof p.longitude === 'number' ? { lat: p.latitude, lng: p.longitude } : undefined;
  }

  private route(tool: string, args: Args): ToolResult {
    const from = this.point(tool === 'maps_directions' ? args.origin : (args.origins as unknown[])[0]);
    const to = this.point(tool === 'maps_directions' ? args.destination : (args.destinations as unknown[])[0]);
    const meters = from && to ? Math.round(ROAD_FACTOR * haversine(from, to)) : null;
    const distance = meters === null ? null : { text: distanceText(meters), value: meters };
    const seconds = meters === null ? null : Math.round(meters / ROAD_SPEED);
    const duration = seconds === null ? null : { text: durationText(seconds), value: seconds };
    if (tool === 'maps_directions') return okResult(formatDirections(meters === null ? [] : [{ summary: 'World Road', distance, duration, steps: [] }]));
    const status = meters === null ? 'NOT_FOUND' : 'OK';
    return okResult(formatDistanceMatrix({ origin_addresses: ['(world origin)'], destination_addresses: ['(world destination)'], results: [{ elements: [{ status, duration, distance }] }] }));
  }

  private weather(args: Args): ToolResult {
    const place = this.nearest(Number(args.latitude), Number(args.longitude));
    if (!place) return errorResult('no weather data at this point in this world');
    if (String(args.start_date) < ARCHIVE_START) return errorResult(`the weather archive starts on ${ARCHIVE_START}`);
    const days = datesBetween(String(args.start_date), String(args.end_date ?? args.start_date));
    const c = place.climate;
    const daily = {
      time: days,
      temperature_2m_max: days.map((d) => round(c.temp_max + 8 * unit('t', place.name, d) - 4, 1)),
      precipitation_sum: days.map((d) => round(c.precip * 2 * unit('p', place.name, d), 2)),
      snowfall_sum: days.map((d) => round(c.snow * 2 * unit('s', place.name, d), 2)),
      sunshine_duration: days.map((d) => round(c.sunshine * (0.5 + unit('u', place.name, d)), 2)),
    };
    const data = { latitude: place.lat, longitude: place.lng, elevation: place.elevation, timezone: 'GMT', daily_units: { time: 'iso8601', temperature_2m_max: '°C', precipitation_sum: 'mm', snowfall_sum: 'cm', sunshine_duration: 's' }, daily };
    const select = args.select as string[] | undefined;
    return okResult(select?.length ? formatSelected(selectPaths(data, select)) : formatWeather(data));
  }

  private country(tool: string, name: string): ToolResult {
    const c = this.world.countries.find((x) => [x.name, ...x.aliases].some((n) => key(n) === key(name)));
    if (!c) return errorResult(`no country matches "${name}"`);
    return okResult(tool === 'countries_population' ? formatCountryPopulation(c.name, c.population) : formatCountryArea(c.name, c.area_km2));
  }

  private market(tool: string, symbol: string, date: string): ToolResult {
    const m = this.world.markets.find((x) => x.symbol === symbol.toUpperCase());
    if (!m) return errorResult(`no market data for ${symbol}`);
    if (date < m.since) return errorResult(`no market data for ${m.symbol} before ${m.since}`);
    const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
    if (m.kind === 'stock' && (weekday === 0 || weekday === 6)) return errorResult(`${m.symbol} did not trade on ${date} (a weekend)`);
    const close = pyRound(m.price * (0.9 + 0.2 * unit('c', m.symbol, date)), 2);
    const volume = Math.round(m.volume * (0.5 + unit('v', m.symbol, date)));
    if (tool === 'stock_historical_price') return okResult(formatStockPrice(m.symbol, date, close));
    if (tool === 'stock_volume') return okResult(formatStockVolume(m.symbol, date, volume));
    if (tool === 'crypto_historical_price') return okResult(formatCryptoPrice(m.symbol, date, close));
    return okResult(formatCryptoVolume(m.symbol, date, volume, pyRound(volume * close, 2)));
  }
}

/** The ISO dates from start to end (at most 31). */
function datesBetween(start: string, end: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); t <= Date.parse(`${end}T00:00:00Z`) && out.length < 31; t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}
