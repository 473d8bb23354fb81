import { errorResult, okResult } from '../providers/formats.js';
import type { ProviderContext, ToolResult } from '../providers/types.js';
import type { Coordinates } from './args.js';
import { formatElevation, formatGeocode, formatPlaceDetails, formatPlaces, formatReverseGeocode, type GeocodeResult, type PlaceSummary } from './maps-formats.js';
import { callGoogle, latLngOf, numberOrNull, placeParam, stringList, stringOrNull } from './maps-google.js';

/** Geocoding answers can hold many partial matches; the agent gets the best few. */
const MAX_GEOCODE_RESULTS = 5;
/** Bias radius (m, Google's maximum) when maps_search_places gets a location without a radius. */
const DEFAULT_SEARCH_RADIUS_M = 50_000;

const geocodeResult = (r: any): GeocodeResult => ({
  formatted_address: r.formatted_address ?? '',
  location: latLngOf(r.geometry?.location) ?? { lat: 0, lng: 0 },
  place_id: r.place_id ?? '',
});

export async function geocode(ctx: ProviderContext, args: { address: string }): Promise<ToolResult> {
  const r = await callGoogle(ctx, 'geocode/json', { address: args.address }, 'Google Geocoding request');
  if (!r.ok) return r.result;
  return okResult(formatGeocode((r.data.results ?? []).slice(0, MAX_GEOCODE_RESULTS).map(geocodeResult)));
}

export async function reverseGeocode(ctx: ProviderContext, args: Coordinates): Promise<ToolResult> {
  const r = await callGoogle(ctx, 'geocode/json', { latlng: placeParam(args) }, 'Google reverse geocoding request');
  if (!r.ok) return r.result;
  const results = (r.data.results ?? []).slice(0, MAX_GEOCODE_RESULTS).map((g: any) => ({
    ...geocodeResult(g),
    types: stringList(g.types),
    address_components: (g.address_components ?? []).map((c: any) => ({
      long_name: c.long_name ?? '',
      short_name: c.short_name ?? '',
      types: stringList(c.types),
    })),
  }));
  return okResult(formatReverseGeocode(results));
}

export async function elevation(ctx: ProviderContext, args: { locations: Coordinates[] }): Promise<ToolResult> {
  const r = await callGoogle(ctx, 'elevation/json', { locations: args.locations.map(placeParam).join('|') }, 'Google Elevation request');
  if (!r.ok) return r.result;
  const results = (r.data.results ?? []).map((e: any) => ({
    elevation: numberOrNull(e.elevation) ?? 0,
    location: latLngOf(e.location) ?? { lat: 0, lng: 0 },
    resolution: numberOrNull(e.resolution),
  }));
  return okResult(formatElevation(results));
}

/**
 * A text `location` is geocoded first (its best match biases the search); when it cannot be found, the
 * search runs as "<query> near <location>" instead.
 */
export async function searchPlaces(ctx: ProviderContext, args: { query: string; location?: string | Coordinates; radius?: number }): Promise<ToolResult> {
  let query = args.query;
  let location: string | undefined;
  if (typeof args.location === 'string') {
    const g = await callGoogle(ctx, 'geocode/json', { address: args.location }, `Google Geocoding request for location "${args.location}"`);
    if (!g.ok) return g.result;
    const point = latLngOf(g.data.results?.[0]?.geometry?.location);
    if (point) location = `${point.lat},${point.lng}`;
    else query = `${query} near ${args.location}`;
  } else if (args.location) {
    location = placeParam(args.location);
  }
  const radius = location ? Math.round(args.radius ?? DEFAULT_SEARCH_RADIUS_M) : undefined;
  const r = await callGoogle(ctx, 'place/textsearch/json', { query, location, radius }, 'Google Places text search');
  if (!r.ok) return r.result;
  const places: PlaceSummary[] = (r.data.results ?? []).map((p: any) => ({
    name: p.name ?? '',
    formatted_address: stringOrNull(p.formatted_address),
    location: latLngOf(p.geometry?.location),
    place_id: p.place_id ?? '',
    rating: numberOrNull(p.rating),
    user_ratings_total: numberOrNull(p.user_ratings_total),
    types: stringList(p.types),
  }));
  return okResult(formatPlaces(places));
}

/** Every field the tools of the golden values showed (they asked for all fields: reviews and opening periods too), and place_id, types, url. */
const DETAIL_FIELDS = 'place_id,name,formatted_address,geometry/location,formatted_phone_number,website,rating,user_ratings_total,reviews,opening_hours,types,url';

const objectOrNull = (v: unknown): Record<string, unknown> | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null);

export async function placeDetails(ctx: ProviderContext, args: { place_id: string }): Promise<ToolResult> {
  const r = await callGoogle(ctx, 'place/details/json', { place_id: args.place_id, fields: DETAIL_FIELDS }, 'Google Place Details request');
  if (!r.ok) return r.result;
  const p = r.data.result;
  if (!p) return errorResult(`no place has the place_id ${args.place_id}`, r.data.status);
  return okResult(
    formatPlaceDetails({
      place_id: p.place_id ?? args.place_id,
      name: stringOrNull(p.name),
      formatted_address: stringOrNull(p.formatted_address),
      location: latLngOf(p.geometry?.location),
      formatted_phone_number: stringOrNull(p.formatted_phone_number),
      website: stringOrNull(p.website),
      rating: numberOrNull(p.rating),
      user_ratings_total: numberOrNull(p.user_ratings_total),
      reviews: Array.isArray(p.reviews) ? p.reviews : null,
      opening_hours: objectOrNull(p.opening_hours),
      types: stringList(p.types),
      url: stringOrNull(p.url),
    }),
  );
}
