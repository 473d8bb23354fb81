import { createHash } from 'node:crypto';
import type { LoadedLeg } from '../load.js';
import type { Stop } from '../schema.js';
import { checkToolArgs, findTool } from '../../../tools/catalog/index.js';
import * as fmt from '../../../tools/providers/formats.js';
import { callIdentity, canonicalUrl } from '../../../tools/store/canonical.js';
import type { ResponseStore } from '../../../tools/store/store.js';
import { runChain, type ConcreteCall } from './golden-calls.js';

/**
 * The synthetic "golden world": stored responses made from the legs' golden traces alone, so that an
 * agent following a leg's golden path obtains its golden values, with no network. It exists for smoke
 * and load tests of the whole pipeline; it says nothing about the real world (every entry is marked
 * `source: synthetic`, and pages say so in their text).
 */

export const SYNTHETIC_NOTE = 'Synthetic response of the AAR Harness golden world, made from a leg golden trace for testing; not real data.';

export interface SynthesisReport {
  legs: number;
  pages: number;
  toolResponses: number;
  /** Calls two legs need different answers for; the first leg's answer is kept. */
  conflicts: string[];
  /** The legs whose golden path reads another leg's answer somewhere (a conflict they lost): their oracle can fail on this store. */
  conflictLegs: string[];
  /** Steps that cannot be synthesised (a tool no golden chain uses). */
  skipped: string[];
}

const hash = (text: string): number => createHash('sha256').update(text).digest().readUInt32BE(0);

/** Stable made-up coordinates for a place name. */
function coordinatesFor(place: string): fmt.LatLng {
  const h = hash(place);
  return { lat: Math.round(((h % 140_000) / 1000 - 70) * 1e5) / 1e5, lng: Math.round((((h >>> 8) % 360_000) / 1000 - 180) * 1e5) / 1e5 };
}

const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value));

/** The output of one golden call: intermediate steps get made-up data, the last step yields the stop's value. */
function outputFor(call: ConcreteCall, isLast: boolean, value: unknown): string | undefined {
  const a = call.args as Record<string, string & number & unknown[]>;
  const point = (p: unknown): fmt.LatLng => {
    const c = p as { latitude: number; longitude: number };
    return { lat: c.latitude, lng: c.longitude };
  };
  if (isLast && value !== null && typeof value === 'object') return fmt.jsonText(value);
  switch (call.tool) {
    case 'maps_geocode':
      return fmt.formatGeocode([{ formatted_address: String(a.address), location: coordinatesFor(String(a.address)), place_id: `synthetic-${hash(String(a.address)).toString(36)}` }]);
    case 'maps_elevation':
      return fmt.formatElevation((a.locations as unknown[]).map((p) => ({ elevation: num(value), location: point(p), resolution: 9.54 })));
    case 'maps_search_places': {
      const count = Math.max(0, Math.round(num(value)));
      const places = Array.from({ length: count }, (_, i) => ({
        name: `${a.query} #${i + 1}`,
        formatted_address: null,
        location: coordinatesFor(`${a.query}/${i}`),
        place_id: `synthetic-${hash(`${a.query}/${i}`).toString(36)}`,
        rating: null,
        user_ratings_total: null,
        types: ['point_of_interest'],
      }));
      return fmt.formatPlaces(places);
    }
    case 'maps_distance_matrix':
      return fmt.formatDistanceMatrix({
        origin_addresses: ['(synthetic origin)'],
        destination_addresses: ['(synthetic destination)'],
        rows: [{ elements: [{ status: 'OK', distance_km: num(value), duration_min: Math.round(num(value) * 0.9 * 10) / 10 }] }],
      });
    case 'maps_directions':
      return fmt.formatDirections([{ summary: 'synthetic route', distance_km: Math.round(num(value) * 1.2 * 10) / 10, duration_min: num(value), steps: [] }]);
    case 'weather_historical': {
      const selectors = (a.select as string[] | undefined) ?? ['daily.value[0]'];
      return fmt.formatSelected(Object.fromEntries(selectors.map((s, i) => [s, i === 0 ? value : null])));
    }
    case 'countries_population':
      return fmt.formatCountryPopulation(String(a.country), num(value));
    case 'countries_area':
      return fmt.formatCountryArea(String(a.country), num(value));
    case 'stock_historical_price':
      return fmt.formatStockPrice(String(a.ticker), String(a.date), num(value), 'USD');
    case 'stock_volume':
      return fmt.formatStockVolume(String(a.ticker), String(a.date), num(value));
    case 'crypto_historical_price':
      return fmt.formatCryptoPrice(String(a.symbol), String(a.date), num(value));
    case 'crypto_volume':
      return fmt.formatCryptoVolume(String(a.symbol), String(a.date), num(value), num(value));
    default:
      return undefined;
  }
}

function titleOf(url: string): string {
  const last = decodeURIComponent(new URL(url).pathname.split('/').filter(Boolean).pop() ?? url);
  return last.replace(/_/g, ' ');
}

/** Pages: every page stop's URL, holding every fact extracted from it by any leg, and its onward links. */
function collectPages(legs: readonly LoadedLeg[]): Map<string, { url: string; facts: Set<string>; links: Set<string> }> {
  const pages = new Map<string, { url: string; facts: Set<string>; links: Set<string> }>();
  const page = (url: string) => {
    const key = canonicalUrl(url);
    let p = pages.get(key);
    if (!p) pages.set(key, (p = { url: key, facts: new Set(), links: new Set() }));
    return p;
  };
  for (const { leg } of legs) {
    page(leg.seed_url);
    for (const stop of leg.stops) {
      if (stop.stop_type !== 'page' || !stop.page_url) continue;
      const p = page(stop.page_url);
      const value = typeof stop.extracted_value === 'string' ? stop.extracted_value : JSON.stringify(stop.extracted_value);
      p.facts.add(`${stop.extraction_target}: ${value}`);
      if (stop.bridge.target_url) p.links.add(stop.bridge.target_url);
    }
  }
  return pages;
}

export async function synthesizeWorld(legs: readonly LoadedLeg[], store: ResponseStore): Promise<SynthesisReport> {
  const report: SynthesisReport = { legs: legs.length, pages: 0, toolResponses: 0, conflicts: [], conflictLegs: [], skipped: [] };
  const losers = new Set<string>();
  const written = new Map<string, string>();
  const put = (call: ConcreteCall, text: string, where: string, leg?: string): void => {
    const tool = findTool(call.tool)!;
    const checked = checkToolArgs(tool, call.args);
    if (!checked.ok) throw new Error(`${where}: ${checked.error}`);
    const id = callIdentity(tool.name, checked.args);
    const previous = written.get(id.key);
    if (previous !== undefined) {
      if (previous !== text) {
        report.conflicts.push(`${where}: ${id.tool} ${id.args}`);
        if (leg) losers.add(leg);
      }
      return;
    }
    written.set(id.key, text);
    store.put(id, { ok: true, text }, 'synthetic', SYNTHETIC_NOTE);
    if (tool.name === 'fetch_webpage') report.pages++;
    else report.toolResponses++;
  };

  for (const p of collectPages(legs).values()) {
    const body = [
      `> ${SYNTHETIC_NOTE}`,
      '',
      '## Facts',
      ...[...p.facts].map((f) => `- ${f}`),
      ...(p.links.size ? ['', '## Links', ...[...p.links].map((l) => `- [${titleOf(l)}](${l})`)] : []),
    ].join('\n');
    put({ tool: 'fetch_webpage', args: { url: p.url } }, fmt.formatPage(titleOf(p.url), p.url, body), p.url);
  }

  for (const { id, leg } of legs) {
    for (const stop of leg.stops) {
      if (stop.stop_type !== 'tool') continue;
      await synthesizeChain(stop, `${id} stop ${stop.index}`, (c, t, w) => put(c, t, w, id), report);
    }
  }
  report.conflictLegs = [...losers].sort();
  return report;
}

async function synthesizeChain(stop: Stop, where: string, put: (c: ConcreteCall, t: string, w: string) => void, report: SynthesisReport): Promise<void> {
  const chain = stop.bridge.tool_chain;
  let position = 0;
  await runChain(chain, async (call) => {
    const isLast = ++position === chain.length;
    if (call.tool === 'python_execute_code') return String(stop.extracted_value);
    const text = outputFor(call, isLast, stop.extracted_value);
    if (text === undefined) {
      report.skipped.push(`${where}: ${call.tool} is not synthesised`);
      return '';
    }
    put(call, text, where);
    return text;
  });
}
