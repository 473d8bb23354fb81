import { bestCountry } from '../../../tools/catalog/countries.js';
import type { ProviderContext } from '../../../tools/providers/types.js';
import { COUNTRIES } from './fakes/data-apis.js';
import { callParsed, FAKE_KEYS, fakeProviderContext, useFakeUpstreams } from './fakes/index.js';

const upstreams = useFakeUpstreams();

const run = (tool: string, args: Record<string, unknown>, context?: ProviderContext) =>
  callParsed(tool, args, context ?? upstreams.ctx);

describe('serper (web_search)', () => {
  test('POSTs {q, num, gl, hl} with X-API-KEY and keeps organic, answerBox and knowledgeGraph', async () => {
    const r = await run('web_search', { query: 'tallest mountain', num_results: 2 });
    const [req] = upstreams.fakes.servers.serper.requests();
    expect(req).toMatchObject({ method: 'POST', path: '/search', json: { q: 'tallest mountain', num: 2, gl: 'us', hl: 'en' } });
    expect(req.headers['x-api-key']).toBe(FAKE_KEYS.serper);
    expect(req.headers['content-type']).toBe('application/json');
    expect(Object.keys(r.data)).toEqual(['organic', 'answerBox', 'knowledgeGraph']);
    expect(r.data.organic).toEqual([
      { title: 'Result 1 for tallest mountain', link: 'https://example.org/1', snippet: 'Snippet 1', position: 1 },
      { title: 'Result 2 for tallest mountain', link: 'https://example.org/2', snippet: 'Snippet 2', position: 2 },
    ]);
    expect(r.data.answerBox).toEqual({ title: 'Mount Everest', answer: '8,849 m', snippet: 'Mount Everest is the highest mountain.' });
    expect(r.data.knowledgeGraph).toEqual({
      title: 'Mount Everest',
      type: 'Mountain',
      description: "Earth's highest mountain above sea level.",
      attributes: { Elevation: '8,849 m', 'First ascent': 'May 29, 1953' },
    });
  });

  test('gl and hl are passed on', async () => {
    await run('web_search', { query: 'x', gl: 'fr', hl: 'fr' });
    expect(upstreams.fakes.servers.serper.requests()[0].json).toEqual({ q: 'x', num: 5, gl: 'fr', hl: 'fr' });
  });

  test('no key, or a wrong one', async () => {
    expect((await run('web_search', { query: 'x' }, fakeProviderContext(upstreams.fakes, { keys: {} }))).text).toBe('Error: SERPER_API_KEY is not set on the host');
    const wrong = await run('web_search', { query: 'x' }, fakeProviderContext(upstreams.fakes, { keys: { serper: 'nope' } }));
    expect(wrong).toMatchObject({ ok: false, text: 'Error: Serper search failed with HTTP 403: Unauthorized.' });
  });
});

describe('open-meteo (weather)', () => {
  test('weather_historical: archive API, a daily set, timezone=auto; the shape agents see', async () => {
    const r = await run('weather_historical', { latitude: 48.85, longitude: 2.35, start_date: '1947-01-01', end_date: '1947-01-02' });
    const [req] = upstreams.fakes.servers.openMeteo.requests();
    expect(req.path).toBe('/v1/archive');
    expect(req.query).toMatchObject({ latitude: '48.85', longitude: '2.35', start_date: '1947-01-01', end_date: '1947-01-02', timezone: 'auto' });
    for (const v of ['temperature_2m_max', 'temperature_2m_min', 'temperature_2m_mean', 'precipitation_sum', 'snowfall_sum', 'sunshine_duration', 'daylight_duration']) {
      expect(req.query.daily.split(',')).toContain(v);
    }
    expect(Object.keys(r.data)).toEqual(['latitude', 'longitude', 'elevation', 'timezone', 'daily_units', 'daily']);
    expect(r.data.daily.time).toEqual(['1947-01-01', '1947-01-02']);
    expect(r.data.daily_units.temperature_2m_max).toBe('°C');
    expect(r.data.daily.sunshine_duration).toEqual([2327.99, 2427.99]);
  });

  test('select returns the selected values', async () => {
    const r = await run('weather_historical', {
      latitude: 48.85,
      longitude: 2.35,
      start_date: '1947-01-01',
      end_date: '1947-01-01',
      select: ['daily.sunshine_duration[0]', 'daily_units.sunshine_duration', 'timezone'],
    });
    expect(r.text).toBe(JSON.stringify({ 'daily.sunshine_duration[0]': 2327.99, 'daily_units.sunshine_duration': 's', timezone: 'Europe/Paris' }, null, 2));
  });

  test('an unknown select path is an Error listing the keys there', async () => {
    const r = await run('weather_historical', { latitude: 1, longitude: 2, start_date: '2024-01-01', end_date: '2024-01-01', select: ['daily.sunshine[0]'] });
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/^Error: select path "daily.sunshine\[0\]": daily has no key "sunshine"; available keys: time, temperature_2m_max, /);
    const range = await run('weather_historical', { latitude: 1, longitude: 2, start_date: '2024-01-01', end_date: '2024-01-01', select: ['daily.time[3]'] });
    expect(range.text).toBe('Error: select path "daily.time[3]": index 3 is out of range (daily.time has 1 items)');
  });

  test("an API error shows Open-Meteo's reason", async () => {
    const r = await run('weather_historical', { latitude: 1, longitude: 2, start_date: '1900-01-01', end_date: '1900-01-01' });
    expect(r).toMatchObject({ ok: false, text: "Error: Open-Meteo archive request failed with HTTP 400: Parameter 'start_date' is out of allowed range from 1940-01-01 to 2026-03-01" });
  });

  test('weather_forecast: forecast API with current and daily', async () => {
    const r = await run('weather_forecast', { latitude: 48.85, longitude: 2.35 });
    const [req] = upstreams.fakes.servers.openMeteo.requests();
    expect(req.path).toBe('/v1/forecast');
    expect(req.query.current).toContain('temperature_2m');
    expect(Object.keys(r.data)).toEqual(['latitude', 'longitude', 'elevation', 'timezone', 'current_units', 'current', 'daily_units', 'daily']);
    expect(r.data.current.temperature_2m).toBe(11.4);
    expect(r.data.daily.time).toHaveLength(7);
    const picked = await run('weather_forecast', { latitude: 48.85, longitude: 2.35, select: ['current.relative_humidity_2m'] });
    expect(picked.data).toEqual({ 'current.relative_humidity_2m': 71 });
  });
});

describe('rest-countries', () => {
  test('exact name first (fullText=true, fields)', async () => {
    const r = await run('countries_population', { country: 'United States' });
    const [req] = upstreams.fakes.servers.restCountries.requests();
    expect(req).toMatchObject({ path: '/v3.1/name/United States', query: { fullText: 'true', fields: 'name,population,area' } });
    expect(r.text).toBe(JSON.stringify({ country: 'United States', population: 340110988 }, null, 2));
  });

  test('official names match exactly too', async () => {
    expect((await run('countries_population', { country: 'Kingdom of Denmark' })).data).toEqual({ country: 'Denmark', population: 6011488 });
  });

  test('falls back to the fuzzy search and picks the most populous match', async () => {
    const r = await run('countries_area', { country: 'guin' });
    expect(upstreams.fakes.servers.restCountries.requests().map((q) => q.query.fullText)).toEqual(['true', undefined]);
    expect(r.data).toEqual({ country: 'Guinea', area_km2: 245857 });
  });

  test('bestCountry: an exact common or official name (accents and punctuation aside), else the most populous', () => {
    const guineas = COUNTRIES.filter((c) => c.name.common.includes('Guinea'));
    expect(bestCountry('papua new guinea', guineas)?.name.common).toBe('Papua New Guinea');
    expect(bestCountry('guin', guineas)?.name.common).toBe('Guinea');
    expect(bestCountry("Cote d'Ivoire", COUNTRIES)?.name.common).toBe('Côte d’Ivoire');
    expect(bestCountry('x', [])).toBeUndefined();
  });

  test('no match is an Error', async () => {
    const r = await run('countries_population', { country: 'Atlantis' });
    expect(r).toMatchObject({ ok: false, text: 'Error: no country matches "Atlantis"' });
    expect(upstreams.fakes.servers.restCountries.requests()).toHaveLength(2);
  });

  test('a server error is not mistaken for "no match"', async () => {
    upstreams.fakes.servers.restCountries.enqueue({ status: 500, body: { message: 'boom' } }, { status: 500, body: { message: 'boom' } }, { status: 500, body: { message: 'boom' } });
    const r = await run('countries_population', { country: 'France' });
    expect(r).toMatchObject({ ok: false, transient: true, text: 'Error: REST Countries request failed with HTTP 500 after 3 attempts: boom' });
  });
});
