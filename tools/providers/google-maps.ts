import type { ProviderSpec } from './define.js';

/** Google's legacy Maps web services (Geocoding, Elevation, Places, Distance Matrix, Directions). */
export const googleMaps = {
  name: 'google-maps',
  endpoints: { googleMaps: 'https://maps.googleapis.com/maps/api' },
  keys: { google: 'GOOGLE_API_KEY' },
  limits: { 'google-maps': { concurrency: 8 } },
} as const satisfies ProviderSpec;
