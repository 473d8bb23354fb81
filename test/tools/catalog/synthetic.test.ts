import { ALL_TOOLS, findTool } from '../../../tools/catalog/index.js';

describe('each tool carries its synthetic-world answer in its definition', () => {
  test('the 12 tools golden chains use are synthesised; the others are not', () => {
    const synthesised = ALL_TOOLS.filter((t) => t.synthetic).map((t) => t.name);
    expect(synthesised.sort()).toEqual(
      [
        'countries_area', 'countries_population', 'crypto_historical_price', 'crypto_volume', 'maps_directions', 'maps_distance_matrix',
        'maps_elevation', 'maps_geocode', 'maps_search_places', 'stock_historical_price', 'stock_volume', 'weather_historical',
      ].sort(),
    );
  });

  test('answers are the provider formats, stable for the same call, carrying the golden value', () => {
    const geocode = findTool('maps_geocode')!.synthetic!;
    expect(geocode({ address: 'Plovdiv' }, null)).toBe(geocode({ address: 'Plovdiv' }, null));
    expect(JSON.parse(geocode({ address: 'Plovdiv' }, null)).results[0].place_id).toMatch(/^synthetic-/);
    expect(JSON.parse(findTool('maps_search_places')!.synthetic!({ query: 'museums' }, 3)).count).toBe(3);
    expect(JSON.parse(findTool('countries_area')!.synthetic!({ country: 'France' }, '643801'))).toEqual({ country: 'France', area_km2: 643801 });
    expect(JSON.parse(findTool('stock_historical_price')!.synthetic!({ ticker: 'AAPL', date: '2024-01-16' }, 183.631))).toEqual({
      ticker: 'AAPL', date: '2024-01-16', close_price: 183.63, currency: 'USD',
    });
    expect(JSON.parse(findTool('weather_historical')!.synthetic!({ select: ['daily.sunshine_duration[0]', 'daily.x[0]'] }, 7))).toEqual({
      'daily.sunshine_duration[0]': 7, 'daily.x[0]': null,
    });
  });
});
