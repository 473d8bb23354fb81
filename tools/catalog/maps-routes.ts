import { metersToKm, okResult, secondsToMinutes } from '../providers/formats.js';
import type { ProviderContext, ToolResult } from '../providers/types.js';
import type { Coordinates } from './args.js';
import { formatDirections, formatDistanceMatrix, type MatrixElement, type Route } from './maps-formats.js';
import { callGoogle, numberOrNull, placeParam } from './maps-google.js';

type Place = string | Coordinates;
type Mode = 'driving' | 'walking' | 'bicycling' | 'transit';

const meters = (v: any): number => numberOrNull(v?.value) ?? 0;

function matrixElement(e: any): MatrixElement {
  const status = typeof e?.status === 'string' ? e.status : 'UNKNOWN';
  if (status !== 'OK') return { status, distance_km: null, duration_min: null };
  const distance = numberOrNull(e.distance?.value);
  const duration = numberOrNull(e.duration?.value);
  return { status, distance_km: distance === null ? null : metersToKm(distance), duration_min: duration === null ? null : secondsToMinutes(duration) };
}

/** maps_distance_matrix: metric units; meters become km and seconds minutes. */
export async function distanceMatrix(ctx: ProviderContext, args: { origins: Place[]; destinations: Place[]; mode?: Mode }): Promise<ToolResult> {
  const query = {
    origins: args.origins.map(placeParam).join('|'),
    destinations: args.destinations.map(placeParam).join('|'),
    mode: args.mode ?? 'driving',
    units: 'metric',
  };
  const r = await callGoogle(ctx, 'distancematrix/json', query, 'Google Distance Matrix request');
  if (!r.ok) return r.result;
  return okResult(
    formatDistanceMatrix({
      origin_addresses: r.data.origin_addresses ?? [],
      destination_addresses: r.data.destination_addresses ?? [],
      rows: (r.data.rows ?? []).map((row) => ({ elements: (row.elements ?? []).map(matrixElement) })),
    }),
  );
}

/** One route with its legs summed (no waypoints are sent, so there is one leg). */
function route(r: any, htmlToText: (html: string) => string): Route {
  const legs: any[] = r.legs ?? [];
  const steps = legs.flatMap((leg) => leg.steps ?? []);
  return {
    summary: typeof r.summary === 'string' ? r.summary : '',
    distance_km: metersToKm(legs.reduce((sum, leg) => sum + meters(leg.distance), 0)),
    duration_min: secondsToMinutes(legs.reduce((sum, leg) => sum + meters(leg.duration), 0)),
    steps: steps.map((s: any) => ({
      instruction: htmlToText(s.html_instructions ?? ''),
      distance_km: metersToKm(meters(s.distance)),
      duration_min: secondsToMinutes(meters(s.duration)),
    })),
  };
}

/** maps_directions: metric units; ZERO_RESULTS gives an empty route list. */
export async function directions(ctx: ProviderContext, args: { origin: Place; destination: Place; mode?: Mode }): Promise<ToolResult> {
  const query = { origin: placeParam(args.origin), destination: placeParam(args.destination), mode: args.mode ?? 'driving', units: 'metric' };
  const r = await callGoogle(ctx, 'directions/json', query, 'Google Directions request');
  if (!r.ok) return r.result;
  const { htmlToText } = await import('../providers/html-markdown.js');
  return okResult(formatDirections((r.data.routes ?? []).map((found) => route(found, htmlToText))));
}
