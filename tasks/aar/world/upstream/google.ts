import { coordinatesOf, factKeys, placeKey, pointKey, type UpstreamFacts } from './facts.js';
import { between, distanceText, durationText, haversine, json, unit, type StandInReply, type StandInRequest } from './reply.js';

/**
 * Google Maps' legacy web services (Geocoding, Elevation, Places Text Search and Details, Distance Matrix,
 * Directions) as a stand-in: their answers' whole shape (address components, viewports, plus codes, photos,
 * reviews, opening periods, `{text, value}`, polylines), values from the world's facts where a golden chain
 * reads one, made up from the request otherwise. Special inputs: an address with "Atlantis" is not found
 * (ZERO_RESULTS / NOT_FOUND), a route from or to Honolulu by road has no route (ZERO_RESULTS).
 */

type LatLng = { lat: number; lng: number };
const status = (s: string, extra: Record<string, unknown> = {}, message?: string): StandInReply => json({ ...extra, ...(message ? { error_message: message } : {}), status: s });
const COORDS = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/;
const parsePoint = (s: string): LatLng | undefined => {
  const m = COORDS.exec(s);
  return m ? { lat: Number(m[1]), lng: Number(m[2]) } : undefined;
};
const pointOf = (place: string): LatLng => parsePoint(place) ?? coordinatesOf(place);
const placeId = (seed: string) => `ChIJ${Buffer.from(String(unit(seed))).toString('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 23)}`;
const notFound = (text: string) => /atlantis/i.test(text);
const titled = (s: string) => s.trim().replace(/\s+/g, ' ');
const viewport = (p: LatLng, d = 0.02) => ({ northeast: { lat: p.lat + d, lng: p.lng + d }, southwest: { lat: p.lat - d, lng: p.lng - d } });
const plusCode = (p: LatLng) => ({ compound_code: `${(p.lat * 7).toFixed(0)}X+${(p.lng * 3).toFixed(0)}`, global_code: `8FW4V${Math.abs(Math.round(p.lat * 100)) % 100}X+${Math.abs(Math.round(p.lng * 100)) % 100}` });

function components(address: string) {
  const parts = titled(address).split(',').map((s) => s.trim()).filter(Boolean);
  const types = [['locality', 'political'], ['administrative_area_level_1', 'political'], ['country', 'political']];
  return parts.slice(-3).map((p, i, all) => ({ long_name: p, short_name: p.length > 3 && i === all.length - 1 ? p.slice(0, 2).toUpperCase() : p, types: types[types.length - all.length + i] }));
}

function geocodeResult(address: string, partial = false) {
  const p = coordinatesOf(address);
  return {
    address_components: components(address),
    formatted_address: titled(address),
    geometry: { location: p, location_type: 'APPROXIMATE', viewport: viewport(p) },
    ...(partial ? { partial_match: true } : {}),
    place_id: placeId(`geocode ${placeKey(address)}`),
    plus_code: plusCode(p),
    types: ['locality', 'political'],
  };
}

function geocode(q: Record<string, string>): StandInReply {
  if (q.latlng) {
    const p = parsePoint(q.latlng);
    if (!p) return status('INVALID_REQUEST', { results: [] }, 'Invalid request. Invalid \'latlng\' parameter.');
    if (p.lat === 0 && p.lng === 0) return status('ZERO_RESULTS', { plus_code: { global_code: '6FG22222+22' }, results: [] });
    const street = `${between(`street ${q.latlng}`, 1, 240)} Harbour Road, Port ${Math.abs(Math.round(p.lat))}, Region ${Math.abs(Math.round(p.lng))}`;
    const result = (address: string, types: string[]) => ({ ...geocodeResult(address), geometry: { location: p, location_type: 'ROOFTOP', viewport: viewport(p, 0.001) }, types });
    return json({ plus_code: plusCode(p), results: [result(street, ['street_address']), result(street.split(', ').slice(1).join(', '), ['locality', 'political'])], status: 'OK' });
  }
  const address = q.address ?? '';
  if (!address.trim()) return status('INVALID_REQUEST', { results: [] }, "Invalid request. Missing the 'address', 'components', 'latlng' or 'place_id' parameter.");
  if (notFound(address)) return status('ZERO_RESULTS', { results: [] });
  // A name without a comma is ambiguous: a second, partial match follows the first.
  const results = address.includes(',') ? [geocodeResult(address)] : [geocodeResult(address), { ...geocodeResult(`${address}, County`, true) }];
  return json({ results, status: 'OK' });
}

function elevation(facts: UpstreamFacts, q: Record<string, string>): StandInReply {
  const points = (q.locations ?? '').split('|').map(parsePoint);
  if (!points.length || points.some((p) => !p)) return status('INVALID_REQUEST', { results: [] }, "Invalid request. Invalid 'locations' parameter.");
  const results = (points as LatLng[]).map((p) => {
    const fact = facts.values.get(factKeys.elevation(p.lat, p.lng));
    const made = between(`elevation ${pointKey(p.lat, p.lng)}`, -20, 2400) + unit(`fraction ${pointKey(p.lat, p.lng)}`);
    return { elevation: typeof fact === 'number' ? fact : made, location: p, resolution: unit(`res ${pointKey(p.lat, p.lng)}`) < 0.5 ? 9.543951988220215 : 152.7032318115234 };
  });
  return json({ results, status: 'OK' });
}

function placeResult(query: string, i: number, near: LatLng, rating: number | null) {
  const seed = `${placeKey(query)} ${i}`;
  const location = { lat: near.lat + (unit(`dlat ${seed}`) - 0.5) / 20, lng: near.lng + (unit(`dlng ${seed}`) - 0.5) / 20 };
  const kind = (query.split(/\s+/)[0] ?? 'place').toLowerCase().replace(/s$/, '');
  return {
    business_status: 'OPERATIONAL',
    formatted_address: `${between(`no ${seed}`, 1, 300)} ${['Market', 'Station', 'River', 'Hill'][i % 4]} Street, ${titled(query.replace(/^.*\bnear\b/i, '')) || 'Town'}`,
    geometry: { location, viewport: viewport(location, 0.002) },
    icon: 'https://maps.gstatic.com/mapfiles/place_api/icons/v1/png_71/generic_business-71.png',
    icon_background_color: '#7B9EB0',
    icon_mask_base_uri: 'https://maps.gstatic.com/mapfiles/place_api/icons/v2/generic_pinlet',
    name: `${kind.charAt(0).toUpperCase()}${kind.slice(1)} ${String.fromCharCode(65 + (i % 26))}${i >= 26 ? i : ''} ${['Central', 'North', 'Old Town', 'Riverside'][i % 4]}`,
    opening_hours: { open_now: unit(`open ${seed}`) < 0.6 },
    photos: [{ height: 3024, html_attributions: ['<a href="https://maps.google.com/maps/contrib/1">A visitor</a>'], photo_reference: `Aap_uE${placeId(seed).slice(4)}`, width: 4032 }],
    place_id: placeId(seed),
    plus_code: plusCode(location),
    ...(rating === null ? {} : { rating }),
    reference: placeId(seed),
    types: [kind, 'point_of_interest', 'establishment'],
    ...(rating === null ? {} : { user_ratings_total: between(`reviews ${seed}`, 3, 25_000) }),
  };
}

function textSearch(facts: UpstreamFacts, q: Record<string, string>): StandInReply {
  const query = q.query ?? '';
  if (!query.trim()) return status('INVALID_REQUEST', { html_attributions: [], results: [] });
  const count = facts.values.get(factKeys.placesCount(query));
  const firstRating = facts.values.get(factKeys.placesRating(query));
  const n = typeof count === 'number' ? count : /nothing|atlantis/i.test(query) ? 0 : between(`count ${placeKey(query)}`, 1, 20);
  if (n === 0) return status('ZERO_RESULTS', { html_attributions: [], results: [] });
  const near = q.location ? (parsePoint(q.location) ?? coordinatesOf(query)) : coordinatesOf(query.replace(/^.*\b(near|in)\b/i, '') || query);
  const results = Array.from({ length: Math.min(n, 20) }, (_, i) => {
    const made = unit(`rated ${placeKey(query)} ${i}`) < 0.15 ? null : Math.round((3.4 + unit(`rating ${placeKey(query)} ${i}`) * 1.6) * 10) / 10;
    // A golden rating of 0 is a first place without a rating (the golden tools read a missing one as 0).
    const rating = i === 0 && typeof firstRating === 'number' ? (firstRating === 0 ? null : firstRating) : made;
    return placeResult(query, i, near, rating);
  });
  return json({ html_attributions: [], ...(n > 20 ? { next_page_token: `AW30Nd${placeId(query).slice(4)}` } : {}), results, status: 'OK' });
}

/** Place Details of any place_id: made up from the id; `fields` keeps only those fields, as Google does. */
function details(q: Record<string, string>): StandInReply {
  const id = q.place_id ?? '';
  if (!id) return status('INVALID_REQUEST', {}, "Invalid request. Missing the 'place_id' parameter.");
  if (/unknown|atlantis/i.test(id)) return status('NOT_FOUND', { html_attributions: [] });
  const p = { lat: (unit(`lat ${id}`) - 0.5) * 120, lng: (unit(`lng ${id}`) - 0.5) * 340 };
  const days = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
  const opens = 8 + between(`opens ${id}`, 0, 3);
  const closes = 17 + between(`closes ${id}`, 0, 5);
  const hhmm = (h: number) => `${String(h).padStart(2, '0')}00`;
  const ampm = (h: number) => `${h > 12 ? h - 12 : h}:00\u202f${h >= 12 ? 'PM' : 'AM'}`;
  const closedOn = between(`closed ${id}`, 0, 6);
  const periods = days.flatMap((_, d) => (d === closedOn ? [] : [{ close: { day: d, time: hhmm(closes) }, open: { day: d, time: hhmm(opens) } }]));
  const weekdayText = [1, 2, 3, 4, 5, 6, 0].map((d) => `${days[d]}: ${d === closedOn ? 'Closed' : `${ampm(opens)} – ${ampm(closes)}`}`);
  const rating = Math.round((3.6 + unit(`rating ${id}`) * 1.4) * 10) / 10;
  const name = `Museum of ${['Maps', 'Rivers', 'Old Trades', 'Light'][between(`name ${id}`, 0, 3)]}`;
  const result: Record<string, any> = {
    address_components: components(`${between(`no ${id}`, 1, 99)} Museum Square, Old Town, Freeland`),
    adr_address: '<span class="street-address">Museum Square</span>, <span class="locality">Old Town</span>',
    business_status: 'OPERATIONAL',
    formatted_address: `${between(`no ${id}`, 1, 99)} Museum Square, Old Town, Freeland`,
    formatted_phone_number: `0${between(`tel ${id}`, 10, 99)} ${between(`tel2 ${id}`, 100, 999)} ${between(`tel3 ${id}`, 1000, 9999)}`,
    geometry: { location: p, viewport: viewport(p, 0.003) },
    icon: 'https://maps.gstatic.com/mapfiles/place_api/icons/v1/png_71/museum-71.png',
    international_phone_number: `+99 ${between(`tel ${id}`, 10, 99)} ${between(`tel2 ${id}`, 100, 999)} ${between(`tel3 ${id}`, 1000, 9999)}`,
    name,
    opening_hours: { open_now: unit(`now ${id}`) < 0.5, periods, weekday_text: weekdayText },
    place_id: id,
    rating,
    reviews: [0, 1, 2].map((i) => ({
      author_name: ['Ana P.', 'Jun K.', 'Sam O.'][i],
      author_url: `https://www.google.com/maps/contrib/${between(`author ${id} ${i}`, 10 ** 6, 10 ** 7)}/reviews`,
      language: 'en',
      original_language: 'en',
      profile_photo_url: `https://lh3.googleusercontent.com/a/photo${i}`,
      rating: between(`r ${id} ${i}`, 2, 5),
      relative_time_description: `${i + 1} month${i ? 's' : ''} ago`,
      text: [`Worth the visit; the ${name.toLowerCase()} keeps its old rooms.`, 'Crowded at noon, quiet after four.', 'Small but well kept. Staff were kind.'][i],
      time: 1_760_000_000 - i * 2_600_000,
      translated: false,
    })),
    types: ['museum', 'tourist_attraction', 'point_of_interest', 'establishment'],
    url: `https://maps.google.com/?cid=${between(`cid ${id}`, 10 ** 8, 10 ** 9)}`,
    user_ratings_total: between(`total ${id}`, 12, 90_000),
    utc_offset: 60,
    vicinity: 'Museum Square, Old Town',
    website: `https://museum-${between(`web ${id}`, 1, 999)}.example.org/`,
  };
  if (!q.fields) return json({ html_attributions: [], result, status: 'OK' });
  const kept: Record<string, any> = {};
  for (const field of q.fields.split(',').map((f) => f.trim())) {
    const [top, sub] = field.split('/');
    if (!(top in result)) continue;
    if (sub) kept[top] = { ...(kept[top] ?? {}), [sub]: result[top][sub] };
    else kept[top] = result[top];
  }
  return json({ html_attributions: [], result: kept, status: 'OK' });
}

const unitsFor = (q: Record<string, string>, origin: string) => q.units ?? (/\b(USA|United States)\b/i.test(origin) ? 'imperial' : 'metric');
const addressOf = (place: string) => (parsePoint(place) ? `${between(`street ${place}`, 1, 240)} Harbour Road, Port ${Math.abs(Math.round(parsePoint(place)!.lat))}` : titled(place));

function distanceMatrix(facts: UpstreamFacts, q: Record<string, string>): StandInReply {
  const origins = (q.origins ?? '').split('|');
  const destinations = (q.destinations ?? '').split('|');
  if (!q.origins || !q.destinations) return status('INVALID_REQUEST', { destination_addresses: [], origin_addresses: [], rows: [] }, "Invalid request. Missing the 'origins' or 'destinations' parameter.");
  const speed = q.mode === 'walking' ? 1.4 : q.mode === 'bicycling' ? 4.5 : 22;
  let originAddresses = origins.map(addressOf);
  let destinationAddresses = destinations.map(addressOf);
  const rows = origins.map((o, i) => ({
    elements: destinations.map((d, j) => {
      const fact = facts.values.get(factKeys.matrix(o, d));
      if (fact && typeof fact === 'object') {
        // A golden value that was a whole answer (an origin that was not found): answered as it was.
        const f = fact as { origin_addresses?: string[]; destination_addresses?: string[]; results?: { elements?: { status?: string }[] }[] };
        if (f.origin_addresses) originAddresses = f.origin_addresses as string[];
        if (f.destination_addresses) destinationAddresses = f.destination_addresses as string[];
        return { status: f.results?.[0]?.elements?.[0]?.status ?? 'NOT_FOUND' };
      }
      if (notFound(o) || notFound(d) || !o.trim() || !d.trim() || o.trim() === ',' || d.trim() === ',') return { status: 'NOT_FOUND' };
      const meters = typeof fact === 'number' ? Math.round(fact * 1000) : Math.round(haversine(pointOf(o), pointOf(d)) * 1.25) + between(`m ${o} ${d}`, 0, 999);
      const seconds = Math.round(meters / speed) + between(`s ${o} ${d} ${i} ${j}`, 0, 59);
      return { distance: { text: distanceText(meters, unitsFor(q, o)), value: meters }, duration: { text: durationText(seconds), value: seconds }, status: 'OK' };
    }),
  }));
  return json({ destination_addresses: destinationAddresses, origin_addresses: originAddresses, rows, status: 'OK' });
}

/** The geocoded origin and destination of a route both places were found for. */
const foundWaypoints = (origin: string, destination: string) =>
  [origin, destination].map((place) => ({ geocoder_status: 'OK', place_id: placeId(place), types: ['locality', 'political'] }));

/** A route's three steps (out of the station, the road, the arrival), its time and distance shared 4% / 90% / 6%. */
function routeSteps(r: { key: string; mode: string; a: { lat: number; lng: number }; b: { lat: number; lng: number }; seconds: number; meters: number; units: Parameters<typeof distanceText>[1]; road: string }) {
  const { key, a, b, units, road } = r;
  const split = [0.04, 0.9, 0.06];
  const secondsOf = [Math.round(r.seconds * split[0]), 0, Math.round(r.seconds * split[2])];
  secondsOf[1] = r.seconds - secondsOf[0] - secondsOf[2];
  const metersOf = [Math.round(r.meters * split[0]), 0, Math.round(r.meters * split[2])];
  metersOf[1] = r.meters - metersOf[0] - metersOf[2];
  const html = [
    `Head <b>${['north', 'east', 'south', 'west'][between(`dir ${key}`, 0, 3)]}</b> on <b>Station Road</b> toward <b>${road}</b>`,
    `Turn <b>right</b> onto <b>${road}</b><div style="font-size:0.9em">Pass by Caf&eacute; &amp; Lodge (on the left)</div>`,
    `Turn <b>left</b><div style="font-size:0.9em">Destination will be on the right</div>`,
  ];
  return html.map((h, i) => ({
    distance: { text: distanceText(metersOf[i], units), value: metersOf[i] },
    duration: { text: durationText(secondsOf[i]), value: secondsOf[i] },
    end_location: { lat: a.lat + ((b.lat - a.lat) * (i + 1)) / 3, lng: a.lng + ((b.lng - a.lng) * (i + 1)) / 3 },
    html_instructions: h,
    ...(i === 1 ? { maneuver: 'turn-right' } : i === 2 ? { maneuver: 'turn-left' } : {}),
    polyline: { points: `_p~iF~ps|U_ulLnnqC_mqNvxq\`@${i}` },
    start_location: { lat: a.lat + ((b.lat - a.lat) * i) / 3, lng: a.lng + ((b.lng - a.lng) * i) / 3 },
    travel_mode: r.mode.toUpperCase(),
  }));
}

function directions(facts: UpstreamFacts, q: Record<string, string>): StandInReply {
  const origin = q.origin ?? '';
  const destination = q.destination ?? '';
  const mode = q.mode ?? 'driving';
  if (!origin.trim() || !destination.trim()) return status('INVALID_REQUEST', { routes: [] }, "Invalid request. Missing the 'origin' or 'destination' parameter.");
  if (notFound(origin) || notFound(destination)) return status('NOT_FOUND', { geocoded_waypoints: [{ geocoder_status: notFound(origin) ? 'ZERO_RESULTS' : 'OK' }, { geocoder_status: notFound(destination) ? 'ZERO_RESULTS' : 'OK' }], routes: [] });
  // Honolulu is on an island: no road leads there from anywhere else.
  if (mode !== 'transit' && /honolulu/i.test(origin) !== /honolulu/i.test(destination)) {
    return status('ZERO_RESULTS', { geocoded_waypoints: foundWaypoints(origin, destination), routes: [] });
  }
  const key = factKeys.directions(origin, destination, mode);
  const minutes = facts.values.get(key);
  const a = pointOf(origin);
  const b = pointOf(destination);
  const speed = mode === 'walking' ? 1.4 : mode === 'bicycling' ? 4.5 : 22;
  const seconds = typeof minutes === 'number' ? routeSeconds(key, minutes) : Math.round((haversine(a, b) * 1.3) / speed) + 60;
  const meters = Math.max(10, Math.round(typeof minutes === 'number' ? minutes * 60 * speed * 0.8 : haversine(a, b) * 1.3) + between(`m ${key}`, 0, 99));
  const units = unitsFor(q, origin);
  const road = `${['A', 'B', 'N', 'M'][between(`road ${key}`, 0, 3)]}${between(`roadno ${key}`, 1, 99)}`;
  const steps = routeSteps({ key, mode, a, b, seconds, meters, units, road });
  return json({
    geocoded_waypoints: foundWaypoints(origin, destination),
    routes: [
      {
        bounds: { northeast: { lat: Math.max(a.lat, b.lat), lng: Math.max(a.lng, b.lng) }, southwest: { lat: Math.min(a.lat, b.lat), lng: Math.min(a.lng, b.lng) } },
        copyrights: 'Map data ©2026',
        legs: [
          {
            distance: { text: distanceText(meters, units), value: meters },
            duration: { text: durationText(seconds), value: seconds },
            end_address: addressOf(destination),
            end_location: b,
            start_address: addressOf(origin),
            start_location: a,
            steps,
            traffic_speed_entry: [],
            via_waypoint: [],
          },
        ],
        overview_polyline: { points: 'a~l~Fjk~uOwHJy@P' },
        summary: road,
        warnings: [],
        waypoint_order: [],
      },
    ],
    status: 'OK',
  });
}

/** A golden route's seconds: its whole minutes and a stable number of seconds more (whole minutes = int(seconds / 60)). */
export const routeSeconds = (key: string, minutes: number): number => minutes * 60 + between(`sec ${key}`, 0, 59);

/** The Google Maps stand-in: `/<service>/json` below its prefix; the key must be present. */
export function googleMaps(facts: UpstreamFacts) {
  return (req: StandInRequest): StandInReply => {
    const q = req.query;
    const routes: Record<string, () => StandInReply> = {
      '/geocode/json': () => geocode(q),
      '/elevation/json': () => elevation(facts, q),
      '/place/textsearch/json': () => textSearch(facts, q),
      '/place/details/json': () => details(q),
      '/distancematrix/json': () => distanceMatrix(facts, q),
      '/directions/json': () => directions(facts, q),
    };
    const route = routes[req.path];
    if (!route) return { status: 404, headers: { 'content-type': 'text/html; charset=UTF-8' }, body: '<html><body><h1>Error 404 (Not Found)</h1></body></html>' };
    if (!q.key) return status('REQUEST_DENIED', { results: [] }, 'You must use an API key to authenticate each request to Google Maps Platform APIs.');
    return route();
  };
}
