import { errorResult } from '../providers/formats.js';
import type { ProviderContext, ToolResult } from '../providers/types.js';
import { requestJson } from '../providers/upstream.js';
import type { Coordinates } from './args.js';
import type { LatLng } from './maps-formats.js';

/** The maps_* tools' calls over the google-maps provider: its key, its statuses. */
export const GOOGLE_MAPS = 'google-maps';

/** The fields of Google's legacy web-service answers that the tools read. */
export interface GoogleAnswer {
  status: string;
  error_message?: string;
  results?: any[];
  result?: any;
  rows?: { elements?: any[] }[];
  origin_addresses?: string[];
  destination_addresses?: string[];
  routes?: any[];
}

/** Statuses that say "try again later" rather than "this request is wrong". */
const TRANSIENT_STATUSES = new Set(['OVER_QUERY_LIMIT', 'UNKNOWN_ERROR']);

/**
 * GET `<googleMaps>/<path>` with the key as the `key` query parameter. OK and ZERO_RESULTS are answers;
 * any other `status` (REQUEST_DENIED, INVALID_REQUEST, NOT_FOUND, OVER_QUERY_LIMIT, ...) is an Error result.
 */
export async function callGoogle(
  ctx: ProviderContext,
  path: string,
  query: Record<string, string | number | undefined>,
  what: string,
): Promise<{ ok: true; data: GoogleAnswer } | { ok: false; result: ToolResult }> {
  if (!ctx.keys.google) return { ok: false, result: errorResult('GOOGLE_API_KEY is not set on the host') };
  const answer = await requestJson<GoogleAnswer>(ctx, GOOGLE_MAPS, { url: `${ctx.endpoints.googleMaps}/${path}`, query: { ...query, key: ctx.keys.google } }, what);
  if (!answer.ok) return answer;
  const { status, error_message: message } = answer.data;
  if (status === 'OK' || status === 'ZERO_RESULTS') return { ok: true, data: answer.data };
  const detail = `${status ?? 'no status'}${message ? `: ${message}` : ''}`;
  return { ok: false, result: errorResult(`${what} failed: ${detail}`, detail, { transient: TRANSIENT_STATUSES.has(status) }) };
}

/** A place argument as Google takes it: the text itself, or "lat,lng". */
export const placeParam = (place: string | Coordinates): string => (typeof place === 'string' ? place : `${place.latitude},${place.longitude}`);

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** Google's `{lat, lng}` (from `geometry.location` or `location`), or null. */
export function latLngOf(value: any): LatLng | null {
  const lat = num(value?.lat);
  const lng = num(value?.lng);
  return lat === null || lng === null ? null : { lat, lng };
}

export const numberOrNull = num;
export const stringOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null);
export const stringList = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
