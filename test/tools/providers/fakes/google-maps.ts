import { json, type FakeReply, type LoggedRequest } from './server.js';

/**
 * Google Maps legacy web services (Geocoding, Elevation, Places Text Search / Details, Distance Matrix,
 * Directions) over a small world. The key must be `key`; special inputs give ZERO_RESULTS / NOT_FOUND.
 */

export const GOOGLE_PLACES = {
  everest: { formatted_address: 'Mount Everest', place_id: 'ChIJvZ69FaJU6DkRsrqrBvjcdgU', location: { lat: 27.9881206, lng: 86.9249751 } },
  paris: { formatted_address: 'Paris, France', place_id: 'ChIJD7fiBh9u5kcRYJSMaMOCCwQ', location: { lat: 48.856614, lng: 2.3522219 } },
  lyon: { formatted_address: 'Lyon, France', place_id: 'ChIJl4foalHq9EcR8CG75CqrCAQ', location: { lat: 45.764043, lng: 4.835659 } },
};

const geocodeEntry = (p: (typeof GOOGLE_PLACES)[keyof typeof GOOGLE_PLACES], types = ['locality', 'political']) => ({
  address_components: [{ long_name: p.formatted_address.split(',')[0], short_name: p.formatted_address.split(',')[0], types }],
  formatted_address: p.formatted_address,
  geometry: { location: p.location, location_type: 'APPROXIMATE', viewport: { northeast: p.location, southwest: p.location } },
  place_id: p.place_id,
  types,
});

const status = (s: string, extra: Record<string, unknown> = {}, message?: string): FakeReply =>
  json({ ...extra, ...(message ? { error_message: message } : {}), status: s });

function geocode(q: Record<string, string>): FakeReply {
  if (q.latlng) {
    if (q.latlng === '0,0') return status('ZERO_RESULTS', { results: [] });
    return json({ plus_code: { global_code: '7MV8XWQF+7X' }, results: [geocodeEntry(GOOGLE_PLACES.paris, ['street_address']), geocodeEntry(GOOGLE_PLACES.paris)], status: 'OK' });
  }
  const address = (q.address ?? '').toLowerCase();
  if (!address) return status('INVALID_REQUEST', { results: [] }, "Invalid request. Missing the 'address', 'components', 'latlng' or 'place_id' parameter.");
  const hit = Object.entries(GOOGLE_PLACES).find(([k]) => address.includes(k));
  if (!hit) return status('ZERO_RESULTS', { results: [] });
  return json({ results: [geocodeEntry(hit[1], ['natural_feature', 'establishment'])], status: 'OK' });
}

function elevation(q: Record<string, string>): FakeReply {
  const points = (q.locations ?? '').split('|').map((p) => p.split(',').map(Number));
  const results = points.map(([lat, lng]) => ({ elevation: lat > 27 && lat < 29 ? 8729.5458984375 : 35.2, location: { lat, lng }, resolution: 152.7032318115234 }));
  return json({ results, status: 'OK' });
}

function textSearch(q: Record<string, string>): FakeReply {
  if (q.query.includes('nothing')) return status('ZERO_RESULTS', { html_attributions: [], results: [] });
  const results = Array.from({ length: q.query.includes('museums') ? 3 : 20 }, (_, i) => ({
    business_status: 'OPERATIONAL',
    formatted_address: `${i + 1} Rue Exemple, 75001 Paris, France`,
    geometry: { location: { lat: 48.86 + i / 1000, lng: 2.33 + i / 1000 }, viewport: {} },
    icon: 'https://maps.gstatic.com/mapfiles/place_api/icons/v1/png_71/museum-71.png',
    name: `Place ${i + 1}`,
    place_id: `ChIJplace${i + 1}`,
    rating: 4.5 - i / 100,
    types: ['museum', 'point_of_interest', 'establishment'],
    user_ratings_total: 1000 - i,
  }));
  return json({ html_attributions: [], results, status: 'OK' });
}

function details(q: Record<string, string>): FakeReply {
  if (q.place_id === 'ChIJunknown') return status('NOT_FOUND', {}, undefined);
  return json({
    html_attributions: [],
    result: {
      formatted_address: 'Rue de Rivoli, 75001 Paris, France',
      formatted_phone_number: '01 40 20 50 50',
      geometry: { location: { lat: 48.8606111, lng: 2.337644 } },
      name: 'Louvre Museum',
      opening_hours: { open_now: false, weekday_text: ['Monday: 9:00 AM – 6:00 PM', 'Tuesday: Closed'] },
      place_id: q.place_id,
      rating: 4.7,
      types: ['museum', 'tourist_attraction'],
      url: 'https://maps.google.com/?cid=123',
      user_ratings_total: 300000,
      website: 'https://www.louvre.fr/',
    },
    status: 'OK',
  });
}

function distanceMatrix(q: Record<string, string>): FakeReply {
  const origins = q.origins.split('|');
  const destinations = q.destinations.split('|');
  const rows = origins.map((o) => ({
    elements: destinations.map((d) =>
      d.includes('Atlantis') || o.includes('Atlantis')
        ? { status: 'NOT_FOUND' }
        : { distance: { text: '169.9 km', value: 169850 }, duration: { text: '1 hour 55 mins', value: 6930 }, status: 'OK' },
    ),
  }));
  return json({ destination_addresses: destinations.map((d) => `${d} (resolved)`), origin_addresses: origins.map((o) => `${o} (resolved)`), rows, status: 'OK' });
}

function directions(q: Record<string, string>): FakeReply {
  if (q.destination === 'Atlantis') return status('NOT_FOUND', { geocoded_waypoints: [{ geocoder_status: 'ZERO_RESULTS' }], routes: [] });
  if (q.destination === 'Tokyo') return status('ZERO_RESULTS', { geocoded_waypoints: [], routes: [] });
  const step = (html: string, m: number, s: number) => ({ distance: { text: '', value: m }, duration: { text: '', value: s }, html_instructions: html, travel_mode: 'DRIVING' });
  return json({
    geocoded_waypoints: [{ geocoder_status: 'OK' }, { geocoder_status: 'OK' }],
    routes: [
      {
        summary: 'Prithvi Hwy',
        legs: [
          {
            distance: { text: '203 km', value: 203456 },
            duration: { text: '6 hours 5 mins', value: 21930 },
            steps: [
              step('Head <b>west</b> on <b>Tribhuvan Rajpath</b>', 1500, 120),
              step('Turn <b>left</b> onto <b>Prithvi Hwy</b><div style="font-size:0.9em">Pass by Café &amp; Lodge</div>', 201956, 21810),
            ],
          },
        ],
      },
    ],
    status: 'OK',
  });
}

const ROUTES: Record<string, (q: Record<string, string>) => FakeReply> = {
  '/geocode/json': geocode,
  '/elevation/json': elevation,
  '/place/textsearch/json': textSearch,
  '/place/details/json': details,
  '/distancematrix/json': distanceMatrix,
  '/directions/json': directions,
};

export function googleMapsHandler(key: string) {
  return (req: LoggedRequest): FakeReply => {
    const route = ROUTES[req.path];
    if (!route) return { status: 404, body: '<html><body>Not Found</body></html>', headers: { 'content-type': 'text/html' } };
    if (req.query.key !== key) return status('REQUEST_DENIED', { results: [] }, 'The provided API key is invalid.');
    return route(req.query);
  };
}
