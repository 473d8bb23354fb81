import { okResult } from '../providers/formats.js';
import type { ProviderContext, ToolResult } from '../providers/types.js';
import type { Coordinates } from './args.js';
import { formatDirections, formatDistanceMatrix, type MatrixElement, type Route, type TextValue } from './maps-formats.js';
import { callGoogle, numberOrNull, placeParam, stringOrNull } from './maps-google.js';

type Place = string | Coordinates;
type Mode = 'driving' | 'walking' | 'bicycling' | 'transit';

/**
 * Google's `{text, value}` as given, or null. Seconds are kept whole: the golden values of the legs' route
 * stops are `int(seconds / 60)`, which rounded minutes cannot give back. No `units` is sent, as the tools the
 * golden values came from sent none, so `text` is in the unit system Google picks for the origin.
 */
function textValue(v: any): TextValue | null {
  const value = numberOrNull(v?.value);
  return value === null ? null : { text: typeof v?.text === 'string' ? v.text : '', value };
}

function matrixElement(e: any): MatrixElement {
  return { status: typeof e?.status === 'string' ? e.status : 'UNKNOWN', duration: textValue(e?.duration), distance: textValue(e?.distance) };
}

/** maps_distance_matrix: one entry of `results` per origin (Google's `rows`). */
export async function distanceMatrix(ctx: ProviderContext, args: { origins: Place[]; destinations: Place[]; mode?: Mode }): Promise<ToolResult> {
  const query = {
    origins: args.origins.map(placeParam).join('|'),
    destinations: args.destinations.map(placeParam).join('|'),
    mode: args.mode ?? 'driving',
  };
  const r = await callGoogle(ctx, 'distancematrix/json', query, 'Google Distance Matrix request');
  if (!r.ok) return r.result;
  return okResult(
    formatDistanceMatrix({
      origin_addresses: r.data.origin_addresses ?? [],
      destination_addresses: r.data.destination_addresses ?? [],
      results: (r.data.rows ?? []).map((row) => ({ elements: (row.elements ?? []).map(matrixElement) })),
    }),
  );
}

/** One route: its first leg (no waypoints are sent, so there is one), or undefined for a route without legs. */
function route(r: any, htmlToText: (html: string) => string): Route | undefined {
  const leg = Array.isArray(r?.legs) ? r.legs[0] : undefined;
  if (!leg) return undefined;
  return {
    summary: stringOrNull(r.summary),
    distance: textValue(leg.distance),
    duration: textValue(leg.duration),
    steps: (Array.isArray(leg.steps) ? leg.steps : []).map((s: any) => ({
      instructions: htmlToText(typeof s?.html_instructions === 'string' ? s.html_instructions : ''),
      distance: textValue(s?.distance),
      duration: textValue(s?.duration),
      travel_mode: stringOrNull(s?.travel_mode),
    })),
  };
}

/** maps_directions: ZERO_RESULTS gives an empty route list. */
export async function directions(ctx: ProviderContext, args: { origin: Place; destination: Place; mode?: Mode }): Promise<ToolResult> {
  const query = { origin: placeParam(args.origin), destination: placeParam(args.destination), mode: args.mode ?? 'driving' };
  const r = await callGoogle(ctx, 'directions/json', query, 'Google Directions request');
  if (!r.ok) return r.result;
  const { htmlToText } = await import('../providers/html-markdown.js');
  return okResult(formatDirections((r.data.routes ?? []).flatMap((found) => route(found, htmlToText) ?? [])));
}
