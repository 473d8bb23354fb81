import { z } from 'zod';
import { flattenPoint, latitude, longitude, numberLike, place, placeList, point, text } from './args.js';

const travelMode = z
  .string()
  .transform((m) => m.toLowerCase())
  .pipe(z.enum(['driving', 'walking', 'bicycling', 'transit'], { error: 'mode must be driving, walking, bicycling or transit' }));

/** maps_geocode */
export const mapsGeocodeArgs = z.object({ address: text('address') });

/** maps_reverse_geocode */
export const mapsReverseGeocodeArgs = z.preprocess(flattenPoint, z.object({ latitude, longitude }));

/** maps_search_places */
export const mapsSearchPlacesArgs = z.object({ query: text('query'), location: place.optional(), radius: numberLike.pipe(z.number().positive()).optional() });

/** maps_place_details */
export const mapsPlaceDetailsArgs = z.object({ place_id: text('place_id') });

/** maps_distance_matrix */
export const mapsDistanceMatrixArgs = z.object({ origins: placeList('origins'), destinations: placeList('destinations'), mode: travelMode.optional() });

/** maps_elevation */
export const mapsElevationArgs = z.preprocess(
    (v) => {
      if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
      const o = v as Record<string, unknown>;
      if (o.locations === undefined && (o.latitude !== undefined || o.location !== undefined || o.lat !== undefined)) {
        return { locations: [o.location ?? { latitude: o.latitude ?? o.lat, longitude: o.longitude ?? o.lng ?? o.lon }] };
      }
      if (typeof o.locations === 'string') return { ...o, locations: o.locations.split('|') };
      return o;
    },
    z.object({ locations: z.preprocess((v) => (Array.isArray(v) ? v : [v]), z.array(point).min(1, 'locations must list at least one point')) }),
  );

/** maps_directions */
export const mapsDirectionsArgs = z.object({ origin: place, destination: place, mode: travelMode.optional() });
