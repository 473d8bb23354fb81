import { TOOLS } from '../../../tools/catalog/index.js';
import { callTool, FAKE_KEYS, fakeProviderContext, useFakeUpstreams } from './fakes/index.js';
import { GOOGLE_PLACES } from './fakes/google-maps.js';

const upstreams = useFakeUpstreams();

const call = async (tool: string, args: Record<string, unknown>, context = upstreams.ctx) => {
  const r = await callTool(tool, args, context);
  return { ...r, data: r.ok ? JSON.parse(r.text) : undefined };
};
const lastRequest = () => upstreams.fakes.servers.googleMaps.requests().at(-1)!;

describe('google-maps provider', () => {
  test('serves the seven maps tools', () => {
    expect(TOOLS.filter((t) => t.provider === 'google-maps').map((t) => t.name).sort()).toEqual(
      ['maps_directions', 'maps_distance_matrix', 'maps_elevation', 'maps_geocode', 'maps_place_details', 'maps_reverse_geocode', 'maps_search_places'],
    );
  });

  test('maps_geocode: key as the key query parameter, results as documented', async () => {
    const r = await call('maps_geocode', { address: 'Mount Everest' });
    expect(lastRequest()).toMatchObject({ method: 'GET', path: '/geocode/json', query: { address: 'Mount Everest', key: FAKE_KEYS.google } });
    expect(r.text).toBe(
      JSON.stringify({ results: [{ formatted_address: 'Mount Everest', location: GOOGLE_PLACES.everest.location, place_id: GOOGLE_PLACES.everest.place_id }] }, null, 2),
    );
  });

  test('maps_geocode: ZERO_RESULTS is an empty list, not an error', async () => {
    const r = await call('maps_geocode', { address: 'Nowhere Land' });
    expect(r).toMatchObject({ ok: true, data: { results: [] } });
  });

  test('maps_reverse_geocode sends latlng', async () => {
    const r = await call('maps_reverse_geocode', { latitude: 48.8566, longitude: 2.3522 });
    expect(lastRequest().query.latlng).toBe('48.8566,2.3522');
    expect(r.data.results).toHaveLength(2);
    expect(Object.keys(r.data.results[0])).toEqual(['formatted_address', 'location', 'place_id', 'types', 'address_components']);
    expect(r.data.results[0].address_components[0]).toEqual({ long_name: 'Paris', short_name: 'Paris', types: ['street_address'] });
  });

  test('maps_elevation: pipe-separated points, meters', async () => {
    const r = await call('maps_elevation', { locations: [{ latitude: 27.9881, longitude: 86.925 }, { latitude: 48.85, longitude: 2.35 }] });
    expect(lastRequest().query.locations).toBe('27.9881,86.925|48.85,2.35');
    expect(r.data.results).toEqual([
      { elevation: 8729.5458984375, location: { lat: 27.9881, lng: 86.925 }, resolution: 152.7032318115234 },
      { elevation: 35.2, location: { lat: 48.85, lng: 2.35 }, resolution: 152.7032318115234 },
    ]);
  });

  test('maps_search_places: count and places', async () => {
    const r = await call('maps_search_places', { query: 'temples near Sydney' });
    expect(lastRequest()).toMatchObject({ path: '/place/textsearch/json', query: { query: 'temples near Sydney', key: FAKE_KEYS.google } });
    expect(lastRequest().query.location).toBeUndefined();
    expect(r.data.count).toBe(20);
    expect(r.data.places[0]).toEqual({
      name: 'Place 1',
      formatted_address: '1 Rue Exemple, 75001 Paris, France',
      location: { lat: 48.86, lng: 2.33 },
      place_id: 'ChIJplace1',
      rating: 4.5,
      user_ratings_total: 1000,
      types: ['museum', 'point_of_interest', 'establishment'],
    });
  });

  test('maps_search_places: a point location and radius bias the search', async () => {
    await call('maps_search_places', { query: 'museums', location: { latitude: 48.85, longitude: 2.35 }, radius: 1500.4 });
    expect(lastRequest().query).toMatchObject({ location: '48.85,2.35', radius: '1500' });
  });

  test('maps_search_places: a text location is geocoded first; an unknown one joins the query', async () => {
    const r = await call('maps_search_places', { query: 'museums', location: 'Lyon, France' });
    const [geo, search] = upstreams.fakes.servers.googleMaps.requests();
    expect(geo).toMatchObject({ path: '/geocode/json', query: { address: 'Lyon, France' } });
    expect(search.query).toMatchObject({ query: 'museums', location: '45.764043,4.835659', radius: '50000' });
    expect(r.data.count).toBe(3);
    upstreams.fakes.reset();
    await call('maps_search_places', { query: 'museums', location: 'Nowhere Land' });
    expect(lastRequest().query).toMatchObject({ query: 'museums near Nowhere Land' });
    expect(lastRequest().query.location).toBeUndefined();
  });

  test('maps_search_places: ZERO_RESULTS gives count 0', async () => {
    expect((await call('maps_search_places', { query: 'nothing here' })).data).toEqual({ count: 0, places: [] });
  });

  test('maps_place_details: asks for the fields it reports; reviews and opening_hours as Google gives them', async () => {
    const r = await call('maps_place_details', { place_id: 'ChIJlouvre' });
    expect(lastRequest().query.fields.split(',')).toEqual(expect.arrayContaining(['geometry/location', 'reviews', 'opening_hours']));
    expect(r.data).toEqual({
      place_id: 'ChIJlouvre',
      name: 'Louvre Museum',
      formatted_address: 'Rue de Rivoli, 75001 Paris, France',
      location: { lat: 48.8606111, lng: 2.337644 },
      formatted_phone_number: '01 40 20 50 50',
      website: 'https://www.louvre.fr/',
      rating: 4.7,
      user_ratings_total: 300000,
      reviews: null,
      opening_hours: { open_now: false, weekday_text: ['Monday: 9:00 AM – 6:00 PM', 'Tuesday: Closed'] },
      types: ['museum', 'tourist_attraction'],
      url: 'https://maps.google.com/?cid=123',
    });
    const missing = await call('maps_place_details', { place_id: 'ChIJunknown' });
    expect(missing).toMatchObject({ ok: false, text: 'Error: Google Place Details request failed: NOT_FOUND' });
  });

  test("maps_distance_matrix: Google's {text, value} per pair, no units asked (as the golden tools)", async () => {
    const r = await call('maps_distance_matrix', { origins: [{ latitude: 48.85, longitude: 2.35 }], destinations: ['Lyon, France', 'Atlantis'] });
    expect(lastRequest().query).toMatchObject({ origins: '48.85,2.35', destinations: 'Lyon, France|Atlantis', mode: 'driving' });
    expect(lastRequest().query.units).toBeUndefined();
    expect(r.data).toEqual({
      origin_addresses: ['48.85,2.35 (resolved)'],
      destination_addresses: ['Lyon, France (resolved)', 'Atlantis (resolved)'],
      results: [
        {
          elements: [
            { status: 'OK', duration: { text: '1 hour 55 mins', value: 6930 }, distance: { text: '169.9 km', value: 169850 } },
            { status: 'NOT_FOUND', duration: null, distance: null },
          ],
        },
      ],
    });
  });

  test("maps_directions: the route's first leg with Google's {text, value} (seconds kept), plain-text instructions", async () => {
    const r = await call('maps_directions', { origin: 'Kathmandu', destination: 'Pokhara', mode: 'walking' });
    expect(lastRequest().query).toMatchObject({ origin: 'Kathmandu', destination: 'Pokhara', mode: 'walking' });
    expect(r.data.routes).toEqual([
      {
        summary: 'Prithvi Hwy',
        distance: { text: '203 km', value: 203456 },
        duration: { text: '6 hours 5 mins', value: 21930 },
        steps: [
          { instructions: 'Head west on Tribhuvan Rajpath', distance: { text: '', value: 1500 }, duration: { text: '', value: 120 }, travel_mode: 'DRIVING' },
          { instructions: 'Turn left onto Prithvi Hwy Pass by Café & Lodge', distance: { text: '', value: 201956 }, duration: { text: '', value: 21810 }, travel_mode: 'DRIVING' },
        ],
      },
    ]);
  });

  test('maps_directions: ZERO_RESULTS is no route; NOT_FOUND is an Error', async () => {
    expect((await call('maps_directions', { origin: 'Honolulu', destination: 'Tokyo' })).data).toEqual({ routes: [] });
    const r = await call('maps_directions', { origin: 'Paris', destination: 'Atlantis' });
    expect(r).toMatchObject({ ok: false, text: 'Error: Google Directions request failed: NOT_FOUND', providerError: 'NOT_FOUND' });
  });

  test('a Google error status becomes an Error with its message', async () => {
    const wrongKey = fakeProviderContext(upstreams.fakes, { keys: { ...FAKE_KEYS, google: 'wrong' } });
    const r = await call('maps_geocode', { address: 'Paris' }, wrongKey);
    expect(r).toMatchObject({ ok: false, text: 'Error: Google Geocoding request failed: REQUEST_DENIED: The provided API key is invalid.' });
    expect(r.transient).toBeUndefined();
    upstreams.fakes.servers.googleMaps.enqueue({ body: { results: [], status: 'OVER_QUERY_LIMIT', error_message: 'You have exceeded your daily request quota.' } });
    expect(await call('maps_geocode', { address: 'Paris' })).toMatchObject({ ok: false, transient: true });
  });

  test('no key: an Error without any request', async () => {
    const r = await call('maps_geocode', { address: 'Paris' }, fakeProviderContext(upstreams.fakes, { keys: {} }));
    expect(r).toMatchObject({ ok: false, text: 'Error: GOOGLE_API_KEY is not set on the host' });
    expect(upstreams.fakes.requests).toHaveLength(0);
  });

  test('an upstream HTTP error after the retries is a transient Error naming the status', async () => {
    upstreams.fakes.servers.googleMaps.enqueue({ status: 503, body: 'Service Unavailable' }, { status: 503 }, { status: 503, body: 'Service Unavailable' });
    const r = await call('maps_elevation', { locations: [{ latitude: 1, longitude: 2 }] });
    expect(r).toMatchObject({ ok: false, transient: true, text: 'Error: Google Elevation request failed with HTTP 503 after 3 attempts: Service Unavailable' });
    expect(upstreams.fakes.servers.googleMaps.requests()).toHaveLength(3);
  });

  test('a 429 then 200 is retried transparently', async () => {
    upstreams.fakes.servers.googleMaps.enqueue({ status: 429, headers: { 'retry-after': '0' } });
    const r = await call('maps_geocode', { address: 'Paris' });
    expect(r.ok).toBe(true);
    expect(upstreams.fakes.servers.googleMaps.requests()).toHaveLength(2);
  });
});
