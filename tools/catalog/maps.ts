import { z } from 'zod';
import { flattenPoint, latitude, longitude, numberLike, place, placeList, point, text } from './args.js';
import type { ProviderContext, ToolResult } from '../providers/types.js';
import { defineTool } from './define.js';
import * as fmt from './maps-formats.js';
import { GOOGLE_MAPS } from './maps-google.js';
import { elevation, geocode, placeDetails, reverseGeocode, searchPlaces } from './maps-places.js';
import { directions, distanceMatrix } from './maps-routes.js';
import { numeric, syntheticCoordinates, syntheticHash } from './synthetic.js';
import type { ToolDefinition, ToolSpec } from './types.js';

const syntheticId = (key: string): string => `synthetic-${syntheticHash(key).toString(36)}`;
/** Whole minutes as Google's duration: `int(seconds / 60)` gives them back. */
const syntheticDuration = (minutes: number) => ({ text: `${Math.trunc(minutes)} mins`, value: Math.trunc(minutes) * 60 });
const syntheticDistance = (km: number) => ({ text: `${Math.round(km * 10) / 10} km`, value: Math.round(km * 1000) });

const travelMode = () =>
  z
    .string()
    .transform((m) => m.toLowerCase())
    .pipe(z.enum(['driving', 'walking', 'bicycling', 'transit'], { error: 'mode must be driving, walking, bicycling or transit' }));

const MODE_DOC = 'driving (default), walking, bicycling or transit';

/** A Google Maps tool: answered at the gateway by `call` (maps-places.ts, maps-routes.ts) over the google-maps provider. */
function mapsTool(spec: Omit<ToolSpec, 'group' | 'runsIn' | 'provider' | 'run'>, call: (ctx: ProviderContext, args: any) => Promise<ToolResult>): ToolDefinition {
  return defineTool({ ...spec, group: 'maps', runsIn: 'gateway', provider: GOOGLE_MAPS, run: (args, ctx) => call(ctx, args) });
}

export const mapsGeocode = mapsTool({
  name: 'maps_geocode',
  summary: 'Turn an address or place name into coordinates (Google Geocoding).',
  returns: 'JSON with formatted_address, location {lat, lng} and place_id of the best matches',
  args: () => z.object({ address: text('address').describe('address or place name') }),
  example: { address: 'Mount Everest' },
  synthetic: (a) => fmt.formatGeocode([{ formatted_address: String(a.address), location: syntheticCoordinates(String(a.address)), place_id: syntheticId(String(a.address)) }]),
}, geocode);

export const mapsReverseGeocode = mapsTool({
  name: 'maps_reverse_geocode',
  summary: 'Turn coordinates into an address (Google Geocoding).',
  returns: 'JSON with formatted_address, place_id and address_components of the matches',
  args: () => z.preprocess(flattenPoint, z.object({ latitude: latitude(), longitude: longitude() })),
  example: { latitude: 27.9881, longitude: 86.925 },
}, reverseGeocode);

export const mapsSearchPlaces = mapsTool({
  name: 'maps_search_places',
  summary: 'Search places by text, optionally near a location (Google Places Text Search).',
  returns: 'JSON with a places array (name, formatted_address, location, place_id, rating, types) and its count',
  args: () => z.object({
    query: text('query').describe('what to look for, e.g. "museums in Lyon"'),
    location: place().optional().describe('bias results towards this place'),
    radius: numberLike().pipe(z.number().positive()).optional().describe('search radius around location, in meters'),
  }),
  example: { query: 'hotels near Provincial Assembly of Balochistan' },
  // A golden count is that many places; a golden first rating (place_rating) is one place rated so.
  synthetic: (a, value, outputKey) =>
    fmt.formatPlaces(
      Array.from({ length: outputKey === 'place_rating' ? 1 : Math.max(0, Math.round(numeric(value))) }, (_, i) => ({
        name: `${a.query} #${i + 1}`,
        formatted_address: null,
        location: syntheticCoordinates(`${a.query}/${i}`),
        place_id: syntheticId(`${a.query}/${i}`),
        rating: outputKey === 'place_rating' ? numeric(value) : null,
        user_ratings_total: null,
        types: ['point_of_interest'],
      })),
    ),
}, searchPlaces);

export const mapsPlaceDetails = mapsTool({
  name: 'maps_place_details',
  summary: 'Details of one place by its Google place_id.',
  returns: 'JSON with name, address, location, phone, website, rating, reviews and opening hours',
  args: () => z.object({ place_id: text('place_id').describe('a place_id from maps_geocode or maps_search_places') }),
  example: { place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4' },
}, placeDetails);

export const mapsDistanceMatrix = mapsTool({
  name: 'maps_distance_matrix',
  summary: 'Travel distance and duration between origins and destinations (Google Distance Matrix).',
  returns: 'JSON with origin_addresses, destination_addresses and, per pair (results[origin].elements[destination]), distance (meters) and duration (seconds) as {text, value}',
  args: () => z.object({
    origins: placeList('origins').describe('addresses or {latitude, longitude}'),
    destinations: placeList('destinations').describe('addresses or {latitude, longitude}'),
    mode: travelMode().optional().describe(MODE_DOC),
  }),
  example: { origins: ['Paris, France'], destinations: ['Lyon, France'] },
  synthetic: (_a, value) =>
    fmt.formatDistanceMatrix({
      origin_addresses: ['(synthetic origin)'],
      destination_addresses: ['(synthetic destination)'],
      results: [{ elements: [{ status: 'OK', duration: syntheticDuration(numeric(value) * 0.9), distance: { text: `${numeric(value)} km`, value: Math.round(numeric(value) * 1000) } }] }],
    }),
}, distanceMatrix);

/** One point or several: a list, "lat,lng|lat,lng", or a single latitude/longitude pair. */
const elevationArgs = () => z.preprocess(
  (v) => {
    if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
    const o = v as Record<string, unknown>;
    if (o.locations === undefined && (o.latitude !== undefined || o.location !== undefined || o.lat !== undefined)) {
      return { locations: [o.location ?? { latitude: o.latitude ?? o.lat, longitude: o.longitude ?? o.lng ?? o.lon }] };
    }
    if (typeof o.locations === 'string') return { ...o, locations: o.locations.split('|') };
    return o;
  },
  z.object({
    locations: z
      .preprocess((v) => (Array.isArray(v) ? v : [v]), z.array(point()).min(1, 'locations must list at least one point'))
      .meta({ typeLabel: 'list of {latitude, longitude}' })
      .describe('the points; a single latitude/longitude pair is accepted too'),
  }),
);

export const mapsElevation = mapsTool({
  name: 'maps_elevation',
  summary: 'Elevation above sea level of one or more points (Google Elevation).',
  returns: 'JSON with, per point, elevation (meters), location and resolution',
  args: elevationArgs,
  example: { locations: [{ latitude: 27.9881, longitude: 86.925 }] },
  synthetic: (a, value) =>
    fmt.formatElevation(
      (a.locations as { latitude: number; longitude: number }[]).map((p) => ({ elevation: numeric(value), location: { lat: p.latitude, lng: p.longitude }, resolution: 9.54 })),
    ),
}, elevation);

export const mapsDirections = mapsTool({
  name: 'maps_directions',
  summary: 'Route between two places (Google Directions).',
  returns: 'JSON with routes: summary, distance (meters) and duration (seconds) as {text, value}, and steps',
  args: () => z.object({
    origin: place().describe('start'),
    destination: place().describe('end'),
    mode: travelMode().optional().describe(MODE_DOC),
  }),
  example: { origin: 'Kathmandu', destination: 'Pokhara', mode: 'driving' },
  synthetic: (_a, value) =>
    fmt.formatDirections([{ summary: 'synthetic route', distance: syntheticDistance(numeric(value) * 1.2), duration: syntheticDuration(numeric(value)), steps: [] }]),
}, directions);
