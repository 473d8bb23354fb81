import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir } from '../../../helpers/data.js';
import { callIdentity } from '../../../../tools/store/canonical.js';
import { WorldStore } from '../../../../tasks/aar/world/described/store.js';
import { loadWorld } from '../../../../tasks/aar/world/described/schema.js';
import { readPage } from '../../../../tasks/aar/generate/steps/page-reader.js';
import { EXAMPLE_WORLD, wiki } from '../generate/helpers.js';

const store = WorldStore.fromFile(EXAMPLE_WORLD, '/nonexistent-overlay');
const answer = (tool: string, args: Record<string, unknown>) => store.get(callIdentity(tool, args));

describe('a described world served as a replay store', () => {
  test('a page is the Markdown fetch_webpage makes of MediaWiki HTML: the reader finds its infobox, intro, sections and links', () => {
    const entry = answer('fetch_webpage', { url: wiki('Alder Bridge') })!;
    expect(entry).toMatchObject({ ok: true, source: 'synthetic', resolved_url: wiki('Alder Bridge') });
    const page = readPage(wiki('Alder Bridge'), entry.text, 0);
    expect(page.title).toBe('Alder Bridge');
    expect(page.infobox.map((f) => f.key)).toEqual(['Location', 'Opened', 'Length', 'Main span', 'Designer', 'Coordinates']);
    expect(page.infobox[0]).toEqual({ key: 'Location', value: 'Port Alder, Veldrania', links: [wiki('Port Alder'), wiki('Veldrania')] });
    expect(page.description).toBe('a steel arch bridge across the harbour of Port Alder, designed by Tomas Erlund');
    expect(page.sections.map((s) => s.heading)).toEqual(['History']);
    expect(page.links.map((l) => l.url)).toEqual([wiki('Port Alder'), wiki('Veldrania'), wiki('Tomas Erlund')]);
    expect(page.text).toContain('Synthetic page of the AAR Harness example world');
  });

  test('the fake APIs answer from the world in each tool\'s format, and refuse what their real twins refuse', () => {
    expect(JSON.parse(answer('maps_geocode', { address: 'port alder' })!.text).results[0].location).toEqual({ lat: 46.2113, lng: 11.4207 });
    expect(JSON.parse(answer('maps_geocode', { address: 'Atlantis' })!.text).results).toEqual([]);
    expect(JSON.parse(answer('maps_elevation', { locations: [{ latitude: 46.2113, longitude: 11.4207 }] })!.text).results[0].elevation).toBe(212.4);
    expect(JSON.parse(answer('maps_search_places', { query: 'museums near Harrow Bay' })!.text).count).toBe(6);
    expect(JSON.parse(answer('maps_search_places', { query: 'Tarnby' })!.text).places[0].rating).toBe(4);
    expect(JSON.parse(answer('countries_area', { country: 'Dunmere' })!.text)).toEqual({ country: 'Dunmere', area_km2: 22415.8 });
    const weather = answer('weather_historical', { latitude: 46.2113, longitude: 11.4207, start_date: '1962-05-18', end_date: '1962-05-18', select: ['daily.sunshine_duration[0]'] })!;
    expect(Object.keys(JSON.parse(weather.text))).toEqual(['daily.sunshine_duration[0]']);
    // Refusals: the archive starts in 1940, a stock before its listing or on a weekend.
    expect(answer('weather_historical', { latitude: 46.2113, longitude: 11.4207, start_date: '1889-05-02', end_date: '1889-05-02' })!.text).toMatch(/^Error: the weather archive starts on 1940-01-01/);
    expect(answer('stock_historical_price', { ticker: 'ALDR', date: '1990-01-02' })!.text).toMatch(/before 1994-03-01/);
    expect(answer('stock_volume', { ticker: 'ALDR', date: '2024-06-15' })!.text).toMatch(/weekend/);
    expect(answer('maps_reverse_geocode', { latitude: 1, longitude: 2 })).toBeUndefined();
    expect(answer('fetch_webpage', { url: wiki('Nowhere') })).toBeUndefined();
  });

  test('routes, search, weather and prices in the formats of the golden values\' tools (issue 34)', () => {
    const route = JSON.parse(answer('maps_directions', { origin: 'Port Alder', destination: 'Harrow Bay' })!.text).routes[0];
    expect(route.distance).toEqual({ text: expect.stringMatching(/^\d+(\.\d)? km$/), value: expect.any(Number) });
    expect(Number.isInteger(route.distance.value) && Number.isInteger(route.duration.value)).toBe(true);
    expect(route.duration.value).toBe(Math.round(route.distance.value / (70_000 / 3600))); // meters at 70 km/h, in seconds
    expect(route.duration.text).toMatch(/^(\d+ hours? )?\d+ mins?$/);
    const matrix = JSON.parse(answer('maps_distance_matrix', { origins: ['Port Alder'], destinations: ['Harrow Bay'] })!.text);
    expect(matrix.results[0].elements[0]).toEqual({ status: 'OK', duration: route.duration, distance: route.distance });
    expect(JSON.parse(answer('maps_distance_matrix', { origins: ['Port Alder'], destinations: ['Atlantis'] })!.text).results[0].elements[0]).toEqual({ status: 'NOT_FOUND', duration: null, distance: null });
    const search = JSON.parse(answer('web_search', { query: 'Rimehold' })!.text);
    expect(search.searchParameters).toMatchObject({ q: 'Rimehold', location: 'United States', gl: 'us', hl: 'en' });
    expect(search.organic[0]).toMatchObject({ title: 'Rimehold - Wikipedia', link: wiki('Rimehold'), position: 1 });
    const weather = answer('weather_historical', { latitude: 46.2113, longitude: 11.4207, start_date: '2001-05-04', end_date: '2001-05-04', select: ['daily.snowfall_sum[0]', 'daily.nothing[0]'] })!;
    expect(weather.ok).toBe(true);
    expect(JSON.parse(weather.text)['daily.nothing[0]']).toBeNull();
    const price = JSON.parse(answer('stock_historical_price', { ticker: 'KVRL', date: '2007-03-14' })!.text);
    expect(price).toEqual({ ticker: 'KVRL', date: '2007-03-14', close_price: expect.any(Number), currency: 'USD' });
    expect(Math.round(price.close_price * 100)).toBeCloseTo(price.close_price * 100, 9);
  });

  test('the same call gets the same answer; the random-page API lists every page', () => {
    const args = { ticker: 'KVRL', date: '2007-03-14' };
    expect(answer('stock_historical_price', args)!.text).toBe(answer('stock_historical_price', args)!.text);
    const random = JSON.parse(answer('fetch_webpage', { url: 'https://en.wikipedia.org/w/api.php?action=query&format=json&list=random&rnlimit=20&rnnamespace=0' })!.text);
    expect(random.query.random.map((r: { title: string }) => r.title)).toContain('Miren trout');
  });

  test('a bad world file is refused in one line naming the file, line and key', () => {
    const { dir, cleanup } = tempDir('aar-world-');
    try {
      const file = path.join(dir, 'w.yaml');
      writeFileSync(file, 'name: x\nnote: y\nplaces:\n  - { name: A, lat: 95, lng: 0, elevation: 1, climate: { temp_max: 1, precip: 0, snow: 0, sunshine: 0 } }\npages: [{ title: A, intro: a }]\n');
      expect(() => loadWorld(file)).toThrow(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:4:\\d+: places\\[0\\]\\.lat: Too big`));
    } finally {
      cleanup();
    }
  });
});
