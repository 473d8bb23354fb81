/**
 * The maps_* tools' answers: JSON pretty-printed (2-space indent), keys in the order written; elevations in
 * meters; routes and the distance matrix give Google's `{text, value}` (meters, seconds), as the tools the
 * golden values were computed with did.
 */
import { jsonText } from '../providers/formats.js';

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
 * "rating","user_ratings_total","reviews" (Google's review objects, as given),"opening_hours" (Google's object:
 * open_now, periods, weekday_text, as given),"types","url"}`.
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
  reviews: unknown[] | null;
  opening_hours: Record<string, unknown> | null;
  types: string[];
  url: string | null;
}
export const formatPlaceDetails = (place: PlaceDetails): string => jsonText(place);

/** A distance or duration as Google gives it: `value` in meters or seconds, `text` for people ("6 hours 5 mins"). */
export interface TextValue {
  text: string;
  value: number;
}

/**
 * maps_distance_matrix: `{"origin_addresses","destination_addresses","results":[{"elements":[{"status","duration",
 * "distance"}]}]}`: one entry of `results` per origin, one element per destination; `duration` (seconds) and
 * `distance` (meters) are Google's `{text, value}`, null unless status is OK.
 */
export interface MatrixElement {
  status: string;
  duration: TextValue | null;
  distance: TextValue | null;
}
export interface DistanceMatrix {
  origin_addresses: string[];
  destination_addresses: string[];
  results: { elements: MatrixElement[] }[];
}
export const formatDistanceMatrix = (m: DistanceMatrix): string =>
  jsonText({ origin_addresses: m.origin_addresses, destination_addresses: m.destination_addresses, results: m.results });

/**
 * maps_directions: `{"routes":[{"summary","distance","duration","steps":[{"instructions" (plain text),"distance",
 * "duration","travel_mode"}]}]}` with Google's `{text, value}` distances (meters) and durations (seconds);
 * `routes` is empty when there is no route.
 */
export interface RouteStep {
  instructions: string;
  distance: TextValue | null;
  duration: TextValue | null;
  travel_mode: string | null;
}
export interface Route {
  summary: string | null;
  distance: TextValue | null;
  duration: TextValue | null;
  steps: RouteStep[];
}
export const formatDirections = (routes: Route[]): string => jsonText({ routes });
