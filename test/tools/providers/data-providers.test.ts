import type { ProviderContext } from '../../../tools/providers/types.js';
import { callParsed, FAKE_KEYS, fakeProviderContext, useFakeUpstreams } from './fakes/index.js';

const upstreams = useFakeUpstreams();

const run = (tool: string, args: Record<string, unknown>, context?: ProviderContext) =>
  callParsed(tool, args, context ?? upstreams.ctx);

describe('serper (web_search)', () => {
  test("POSTs {q, location, gl, hl, num} with X-API-KEY and answers with Serper's whole answer but its credits", async () => {
    const r = await run('web_search', { query: 'tallest mountain', num_results: 2 });
    const [req] = upstreams.fakes.servers.serper.requests();
    expect(req).toMatchObject({ method: 'POST', path: '/search', json: { q: 'tallest mountain', location: 'United States', gl: 'us', hl: 'en', num: 2 } });
    expect(req.headers['x-api-key']).toBe(FAKE_KEYS.serper);
    expect(req.headers['content-type']).toBe('application/json');
    expect(Object.keys(r.data)).toEqual(['searchParameters', 'answerBox', 'knowledgeGraph', 'organic', 'peopleAlsoAsk']);
    expect(r.data.organic[1]).toEqual({ title: 'Result 2 for tallest mountain', link: 'https://example.org/2', snippet: 'Snippet 2', sitelinks: [{ title: 'More', link: 'https://example.org/more' }], position: 2 });
    expect(r.data.answerBox.snippetHighlighted).toEqual(['8,849 m']);
    expect(r.data.knowledgeGraph.imageUrl).toBe('https://example.org/everest.png');
  });

  test('num is at most 10 (as the golden tools sent it); location, gl and hl are passed on; sections pick parts', async () => {
    await run('web_search', { query: 'x', gl: 'fr', hl: 'fr', location: 'Paris, France', num_results: 50 });
    expect(upstreams.fakes.servers.serper.requests()[0].json).toEqual({ q: 'x', location: 'Paris, France', gl: 'fr', hl: 'fr', num: 10 });
    const picked = await run('web_search', { query: 'x', num_results: 1, sections: ['organic', 'topStories'] });
    expect(picked.data).toEqual({ organic: [{ title: 'Result 1 for x', link: 'https://example.org/1', snippet: 'Snippet 1', sitelinks: [{ title: 'More', link: 'https://example.org/more' }], position: 1 }], topStories: null });
  });

  test('no key, or a wrong one', async () => {
    expect((await run('web_search', { query: 'x' }, fakeProviderContext(upstreams.fakes, { keys: {} }))).text).toBe('Error: SERPER_API_KEY is not set on the host');
    const wrong = await run('web_search', { query: 'x' }, fakeProviderContext(upstreams.fakes, { keys: { serper: 'nope' } }));
    expect(wrong).toMatchObject({ ok: false, text: 'Error: Serper search failed with HTTP 403: Unauthorized.' });
  });
});

describe('open-meteo (weather)', () => {
  test("weather_historical: archive API, a daily set, timezone=auto; Open-Meteo's answer but its timing", async () => {
    const r = await run('weather_historical', { latitude: 48.85, longitude: 2.35, start_date: '1947-01-01', end_date: '1947-01-02' });
    const [req] = upstreams.fakes.servers.openMeteo.requests();
    expect(req.path).toBe('/v1/archive');
    expect(req.query).toMatchObject({ latitude: '48.85', longitude: '2.35', start_date: '1947-01-01', end_date: '1947-01-02', timezone: 'auto' });
    // Every variable the golden values' weather tool asked for, and temperature and wind besides.
    const asked = ['apparent_temperature_mean', 'rain_sum', 'precipitation_sum', 'snowfall_sum', 'precipitation_hours', 'sunrise', 'sunset', 'daylight_duration', 'sunshine_duration', 'apparent_temperature_min', 'apparent_temperature_max'];
    expect(req.query.daily.split(',')).toEqual(expect.arrayContaining([...asked, 'temperature_2m_max', 'temperature_2m_min', 'temperature_2m_mean']));
    expect(Object.keys(r.data)).toEqual(['latitude', 'longitude', 'utc_offset_seconds', 'timezone', 'timezone_abbreviation', 'elevation', 'daily_units', 'daily']);
    expect(r.data.daily.time).toEqual(['1947-01-01', '1947-01-02']);
    expect(r.data.daily_units.temperature_2m_max).toBe('°C');
    expect(r.data.daily.sunshine_duration).toEqual([2327.99, 2427.99]);
  });

  test('select returns the selected values, resolved against the whole answer', async () => {
    const r = await run('weather_historical', {
      latitude: 48.85,
      longitude: 2.35,
      start_date: '1947-01-01',
      end_date: '1947-01-01',
      select: ['daily.sunshine_duration[0]', 'daily_units.sunshine_duration', 'timezone', 'generationtime_ms'],
    });
    expect(r.text).toBe(JSON.stringify({ 'daily.sunshine_duration[0]': 2327.99, 'daily_units.sunshine_duration': 's', timezone: 'Europe/Paris', generationtime_ms: 0.123 }, null, 2));
  });

  test('a select path that leads nowhere is null for that path, as the golden tools answered; the others are given', async () => {
    const r = await run('weather_historical', { latitude: 1, longitude: 2, start_date: '2024-01-01', end_date: '2024-01-01', select: ['daily.sunshine[0]', 'daily.time[3]', 'daily.time[0]'] });
    expect(r).toMatchObject({ ok: true });
    expect(r.data).toEqual({ 'daily.sunshine[0]': null, 'daily.time[3]': null, 'daily.time[0]': '2024-01-01' });
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
    expect(Object.keys(r.data)).toEqual(['latitude', 'longitude', 'utc_offset_seconds', 'timezone', 'timezone_abbreviation', 'elevation', 'current_units', 'current', 'daily_units', 'daily']);
    expect(r.data.current.temperature_2m).toBe(11.4);
    expect(r.data.daily.time).toHaveLength(7);
    const picked = await run('weather_forecast', { latitude: 48.85, longitude: 2.35, select: ['current.relative_humidity_2m'] });
    expect(picked.data).toEqual({ 'current.relative_humidity_2m': 71 });
  });
});

describe('rest-countries', () => {
  test("the name search's first match, as the golden values' countries tool took it: a territory may come first", async () => {
    const r = await run('countries_population', { country: 'United States' });
    const [req] = upstreams.fakes.servers.restCountries.requests();
    expect(req).toMatchObject({ path: '/v3.1/name/United States', query: { fields: 'name,population,area' } });
    expect(req.query.fullText).toBeUndefined();
    expect(r.text).toBe(JSON.stringify({ country: 'United States Virgin Islands', population: 87146 }, null, 2));
    expect((await run('countries_area', { country: 'United States' })).data).toEqual({ country: 'United States Virgin Islands', area_km2: 347 });
  });

  test('official names match too; the first match wins over the most populous', async () => {
    expect((await run('countries_population', { country: 'Kingdom of Denmark' })).data).toEqual({ country: 'Denmark', population: 6011488 });
    expect((await run('countries_area', { country: 'guin' })).data).toEqual({ country: 'Guinea', area_km2: 245857 });
    expect((await run('countries_area', { country: 'equatorial' })).data).toEqual({ country: 'Equatorial Guinea', area_km2: 28051 });
    expect(upstreams.fakes.servers.restCountries.requests()).toHaveLength(3);
  });

  test('no match is an Error', async () => {
    const r = await run('countries_population', { country: 'Atlantis' });
    expect(r).toMatchObject({ ok: false, text: 'Error: no country matches "Atlantis"' });
    expect(upstreams.fakes.servers.restCountries.requests()).toHaveLength(1);
  });

  test('a server error is not mistaken for "no match"', async () => {
    upstreams.fakes.servers.restCountries.enqueue({ status: 500, body: { message: 'boom' } }, { status: 500, body: { message: 'boom' } }, { status: 500, body: { message: 'boom' } });
    const r = await run('countries_population', { country: 'France' });
    expect(r).toMatchObject({ ok: false, transient: true, text: 'Error: REST Countries request failed with HTTP 500 after 3 attempts: boom' });
  });
});
