import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkToolArgs, findTool, TOOLS } from '../../../tools/catalog/index.js';
import { AAR_DATA_DIR, describeWithData } from '../../helpers/data.js';
import { findLegFiles } from '../../../tasks/aar/load.js';

const PAPER_TOOLS = [
  'fetch_webpage', 'web_search', 'maps_geocode', 'maps_reverse_geocode', 'maps_search_places', 'maps_place_details',
  'maps_distance_matrix', 'maps_elevation', 'maps_directions', 'weather_historical', 'weather_forecast',
  'python_execute_code', 'python_generate_code', 'countries_population', 'countries_area', 'stock_historical_price',
  'stock_volume', 'crypto_historical_price', 'crypto_volume',
];

const check = (name: string, args: unknown) => checkToolArgs(findTool(name)!, args);

describe('the tool catalog', () => {
  test('has the 19 tools of the paper, by their names', () => {
    expect(TOOLS.map((t) => t.name).sort()).toEqual([...PAPER_TOOLS].sort());
  });
  test('serper_search is web_search', () => {
    expect(findTool('serper_search')?.name).toBe('web_search');
    expect(findTool('nope')).toBeUndefined();
  });
  test.each(TOOLS.map((t) => [t.name, t]))('%s accepts its own example and documents it', (_name, tool) => {
    expect(checkToolArgs(tool, tool.example).ok).toBe(true);
    expect(tool.params.filter((p) => p.required).length).toBeGreaterThan(0);
    expect(tool.summary.length).toBeGreaterThan(10);
  });
  test('common variants agents send are normalised', () => {
    expect(check('maps_elevation', { latitude: '27.98', longitude: 86.92 })).toEqual({ ok: true, args: { locations: [{ latitude: 27.98, longitude: 86.92 }] } });
    expect(check('maps_elevation', { locations: '27.98,86.92|28,87' })).toMatchObject({ ok: true, args: { locations: [{ latitude: 27.98 }, { latitude: 28 }] } });
    expect(check('maps_reverse_geocode', { location: { lat: 1, lng: 2 } })).toMatchObject({ ok: true, args: { latitude: 1, longitude: 2 } });
    expect(check('weather_historical', { latitude: 1, longitude: 2, date: '2024-01-15' })).toMatchObject({
      ok: true,
      args: { start_date: '2024-01-15', end_date: '2024-01-15' },
    });
    expect(check('maps_distance_matrix', { origins: 'Paris', destinations: ['Lyon'], mode: 'WALKING' })).toMatchObject({
      ok: true,
      args: { origins: ['Paris'], mode: 'walking' },
    });
    expect(check('stock_volume', { symbol: 'gsk', date: '2000-12-27' })).toMatchObject({ ok: true, args: { ticker: 'GSK' } });
    expect(check('countries_area', { name: 'France' })).toMatchObject({ ok: true, args: { country: 'France' } });
  });
  test('bad calls give one clear line', () => {
    const bad = [
      check('fetch_webpage', {}),
      check('fetch_webpage', { url: 'not a url' }),
      check('maps_reverse_geocode', { latitude: 100, longitude: 0 }),
      check('weather_historical', { latitude: 1, longitude: 2, start_date: '15/01/2024' }),
      check('maps_directions', { origin: 'A', destination: 'B', mode: 'flying' }),
      check('python_execute_code', { code: '' }),
      check('maps_geocode', 'Paris'),
    ];
    for (const r of bad) {
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error).toMatch(/^invalid arguments for \w+: /);
        expect(r.error).not.toContain('\n');
      }
    }
  });
});

describeWithData('golden tool chains of the real legs', () => {
  test('every golden call (without pipeline __ keys) fits its tool', async () => {
    const failures: string[] = [];
    let calls = 0;
    for (const file of await findLegFiles(AAR_DATA_DIR)) {
      const leg = JSON.parse(readFileSync(file, 'utf8'));
      for (const stop of leg.stops) {
        for (const step of stop.bridge.tool_chain) {
          const args = Object.fromEntries(Object.entries(step.arguments).filter(([k]) => !k.startsWith('__')));
          const wired = Object.keys(step.arguments).some((k: string) => k.startsWith('__'));
          if (wired) continue; // these take their coordinates from the previous step
          calls++;
          const tool = findTool(step.tool_name);
          const r = tool ? checkToolArgs(tool, args) : { ok: false, error: 'unknown tool' };
          if (!r.ok) failures.push(`${path.basename(file)} ${step.tool_name}: ${'error' in r ? r.error : ''}`);
        }
      }
    }
    expect(calls).toBeGreaterThan(5000);
    expect(failures.slice(0, 5)).toEqual([]);
  });
});
