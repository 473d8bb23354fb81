import type { LoadedLeg } from '../../../tasks/aar/load.js';
import type { GoldenStepLike } from '../../../tasks/aar/world/golden-calls.js';

/**
 * The differential cases: calls an agent could make of each of the 19 tools (at least 5 each, the stand-in's
 * edge cases among them), and every argument shape the released legs' golden chains use, each as the chain
 * of a leg that uses it (so both sides wire later steps from earlier outputs, as the golden executor did).
 */

export interface DifferentialCase {
  id: string;
  /** The steps: one for a single call; a golden chain's steps otherwise. */
  steps: GoldenStepLike[];
  /** A golden chain's last value, which both sides must give. */
  golden?: unknown;
  /** Why the case is here. */
  note: string;
}

const one = (id: string, tool: string, args: Record<string, unknown>, note: string): DifferentialCase => ({ id, steps: [{ tool_name: tool, arguments: args }], note });

/** Hand-written cases; `web` is the stand-in's plain website (`<url>/web`). */
export function handCases(web: string, slowRoute: { origin: string; destination: string }): DifferentialCase[] {
  return [
    one('fetch-wiki-generic', 'fetch_webpage', { url: 'https://en.wikipedia.org/wiki/Plurale_(album)' }, 'an article the legs do not use'),
    one('fetch-wiki-spaces', 'fetch_webpage', { url: 'https://en.wikipedia.org/wiki/Harbour Lights of Orkney' }, 'a title with spaces'),
    one('fetch-wiki-missing', 'fetch_webpage', { url: 'https://en.wikipedia.org/wiki/Atlantis_Nonexistent_Page' }, 'no such article'),
    one('fetch-wiki-fr', 'fetch_webpage', { url: 'https://fr.wikipedia.org/wiki/Mont_Blanc' }, 'another language'),
    one('fetch-web-article', 'fetch_webpage', { url: `${web}/article.html` }, 'a plain page with a table, scripts and navigation'),
    one('fetch-web-redirect', 'fetch_webpage', { url: `${web}/moved` }, 'a redirect'),
    one('fetch-web-text', 'fetch_webpage', { url: `${web}/notes.txt` }, 'a text file'),
    one('fetch-web-missing', 'fetch_webpage', { url: `${web}/gone.html` }, 'HTTP 404'),

    one('search-plain', 'web_search', { query: 'lighthouses of Orkney' }, 'default 5 results'),
    one('search-num-3', 'web_search', { query: 'tallest lighthouse in Scotland', num_results: 3 }, 'num_results'),
    one('search-num-15', 'web_search', { query: 'oldest harbour in Europe', num_results: 15 }, 'more than 10 asked: both ask for 10'),
    one('search-sections', 'web_search', { query: 'Port Ellen distillery', sections: ['organic', 'knowledgeGraph', 'topStories'], num_results: 2 }, 'sections'),
    one('search-location', 'web_search', { query: 'ferry timetable', location: 'Paris, France', gl: 'fr', hl: 'fr' }, 'location, gl, hl'),

    one('geocode-comma', 'maps_geocode', { address: 'Kirkwall, Orkney, Scotland' }, 'one match'),
    one('geocode-ambiguous', 'maps_geocode', { address: 'Springfield' }, 'two matches: theirs the first'),
    one('geocode-spaces', 'maps_geocode', { address: '  Port  Ellen,   Islay ' }, 'extra white space'),
    one('geocode-number', 'maps_geocode', { address: '-33.86778' }, 'a bare number, as a leg asks'),
    one('geocode-zero', 'maps_geocode', { address: 'Atlantis' }, 'ZERO_RESULTS'),

    one('reverse-1', 'maps_reverse_geocode', { latitude: 58.98, longitude: -2.96 }, 'a point'),
    one('reverse-2', 'maps_reverse_geocode', { latitude: -33.86778, longitude: 151.21 }, 'southern hemisphere'),
    one('reverse-3', 'maps_reverse_geocode', { latitude: 40.7128, longitude: -74.006 }, 'western hemisphere'),
    one('reverse-4', 'maps_reverse_geocode', { latitude: 35.6762, longitude: 139.6503 }, 'another point'),
    one('reverse-zero', 'maps_reverse_geocode', { latitude: 0, longitude: 0 }, 'ZERO_RESULTS'),

    one('places-plain', 'maps_search_places', { query: 'museums in Kirkwall' }, 'a made-up count'),
    one('places-near-point', 'maps_search_places', { query: 'cafes', location: { latitude: 58.98, longitude: -2.96 }, radius: 2000 }, 'location and radius'),
    one('places-near-point-no-radius', 'maps_search_places', { query: 'hotels', location: { latitude: 51.5, longitude: -0.12 } }, 'location without radius'),
    one('places-zero', 'maps_search_places', { query: 'nothing here at all' }, 'ZERO_RESULTS'),
    one('places-many', 'maps_search_places', { query: 'restaurants near Lyon, France' }, 'up to 20'),

    one('details-1', 'maps_place_details', { place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4' }, 'reviews and opening periods'),
    one('details-2', 'maps_place_details', { place_id: 'ChIJD7fiBh9u5kcRYJSMaMOCCwQ' }, 'another place'),
    one('details-3', 'maps_place_details', { place_id: 'ChIJplace42' }, 'another place'),
    one('details-4', 'maps_place_details', { place_id: 'ChIJl4foalHq9EcR8CG75CqrCAQ' }, 'another place'),
    one('details-missing', 'maps_place_details', { place_id: 'ChIJunknown' }, 'NOT_FOUND'),

    one('matrix-text', 'maps_distance_matrix', { origins: ['Kirkwall, Orkney'], destinations: ['Stromness, Orkney'] }, 'addresses'),
    one('matrix-points', 'maps_distance_matrix', { origins: ['58.98,-2.96'], destinations: ['58.96,-3.3'] }, 'points as "lat,lng"'),
    one('matrix-many', 'maps_distance_matrix', { origins: ['Paris, France', 'Lyon, France'], destinations: ['Nice, France', 'Atlantis'] }, 'two by two, one not found'),
    one('matrix-walking', 'maps_distance_matrix', { origins: ['Kirkwall, Orkney'], destinations: ['Finstown, Orkney'], mode: 'walking' }, 'walking'),
    one('matrix-us', 'maps_distance_matrix', { origins: ['Boston, MA, USA'], destinations: ['Providence, RI, USA'] }, 'units Google picks for the US'),

    one('elevation-one', 'maps_elevation', { locations: [{ latitude: 58.98, longitude: -2.96 }] }, 'one point'),
    one('elevation-two', 'maps_elevation', { locations: [{ latitude: 27.9881, longitude: 86.925 }, { latitude: 36.5785, longitude: -118.2923 }] }, 'two points'),
    one('elevation-south', 'maps_elevation', { locations: [{ latitude: -33.86778, longitude: 151.21 }] }, 'southern hemisphere'),
    one('elevation-three', 'maps_elevation', { locations: [{ latitude: 1, longitude: 2 }, { latitude: 3, longitude: 4 }, { latitude: 5, longitude: 6 }] }, 'three points'),
    one('elevation-zero', 'maps_elevation', { locations: [{ latitude: 0, longitude: 0 }] }, 'the origin'),

    one('directions-slow-seconds', 'maps_directions', { ...slowRoute, mode: 'driving' }, 'a leg route whose seconds % 60 >= 57: minutes rounded would be a minute off'),
    one('directions-walking', 'maps_directions', { origin: 'Kirkwall, Orkney', destination: 'Stromness, Orkney', mode: 'walking' }, 'walking'),
    one('directions-us', 'maps_directions', { origin: 'Boston, MA, USA', destination: 'Providence, RI, USA' }, 'no mode; US units'),
    one('directions-island', 'maps_directions', { origin: 'Honolulu, Hawaii', destination: 'San Francisco, CA', mode: 'driving' }, 'ZERO_RESULTS'),
    one('directions-missing', 'maps_directions', { origin: 'Paris, France', destination: 'Atlantis' }, 'NOT_FOUND'),

    one('weather-day', 'weather_historical', { latitude: 58.98, longitude: -2.96, start_date: '1990-06-01', end_date: '1990-06-01' }, 'one day, no select'),
    one('weather-week', 'weather_historical', { latitude: 48.85, longitude: 2.35, start_date: '2020-01-01', end_date: '2020-01-07' }, 'a week'),
    one('weather-select', 'weather_historical', { latitude: 48.85, longitude: 2.35, start_date: '2020-01-01', end_date: '2020-01-02', select: ['daily.rain_sum[1]', 'timezone', 'daily_units.snowfall_sum'] }, 'selectors'),
    one('weather-select-missing', 'weather_historical', { latitude: 48.85, longitude: 2.35, start_date: '2020-01-01', end_date: '2020-01-01', select: ['daily.temperature_2m_max[0]', 'daily.sunshine_duration[5]', 'daily.nonsense[0]'] }, 'paths that lead nowhere: null each'),
    one('weather-too-early', 'weather_historical', { latitude: 48.85, longitude: 2.35, start_date: '1900-01-01', end_date: '1900-01-01' }, 'out of range: an error'),

    one('forecast-1', 'weather_forecast', { latitude: 58.98, longitude: -2.96 }, 'current and daily'),
    one('forecast-2', 'weather_forecast', { latitude: -33.86778, longitude: 151.21 }, 'another point'),
    one('forecast-3', 'weather_forecast', { latitude: 40.7128, longitude: -74.006 }, 'another point'),
    one('forecast-select', 'weather_forecast', { latitude: 48.85, longitude: 2.35, select: ['current.temperature_2m', 'daily.weather_code[2]'] }, 'selectors'),
    one('forecast-select-missing', 'weather_forecast', { latitude: 48.85, longitude: 2.35, select: ['current.nope'] }, 'a path that leads nowhere'),

    one('python-print', 'python_execute_code', { code: 'print(6 * 7)' }, 'stdout'),
    one('python-stderr', 'python_execute_code', { code: 'import sys\nprint("out")\nprint("warn", file=sys.stderr)' }, 'stdout and stderr'),
    one('python-crash', 'python_execute_code', { code: '1 / 0' }, 'a nonzero exit'),
    one('python-silent', 'python_execute_code', { code: 'x = 1' }, 'no output'),
    one('python-exit-3', 'python_execute_code', { code: 'import sys\nprint("bye")\nsys.exit(3)' }, 'exit code 3'),

    one('generate-1', 'python_generate_code', { description: 'print the number of days between 1945-10-26 and 2007-01-01' }, 'a program'),
    one('generate-2', 'python_generate_code', { description: 'sum the digits of 2130638' }, 'a program'),
    one('generate-extra', 'python_generate_code', { description: 'print the 10th prime', extra_instructions: 'no imports' }, 'extra instructions'),
    one('generate-fenced', 'python_generate_code', { description: 'print hello, answer in a markdown fence' }, 'an answer in a fence'),
    one('generate-model', 'python_generate_code', { description: 'print the square of 12', model: 'gpt-4.1' }, 'the agent names a model'),

    one('population-us', 'countries_population', { country: 'United States' }, 'the first match is a territory'),
    one('population-official', 'countries_population', { country: 'Kingdom of Denmark' }, 'an official name'),
    one('population-korea', 'countries_population', { country: 'Korea' }, 'two matches'),
    one('population-niger', 'countries_population', { country: 'Niger' }, 'Niger before Nigeria'),
    one('population-missing', 'countries_population', { country: 'Atlantis' }, 'no match'),
    one('area-us', 'countries_area', { country: 'United States' }, 'the first match is a territory'),
    one('area-guinea', 'countries_area', { country: 'Guinea' }, 'four countries match'),
    one('area-dominica', 'countries_area', { country: 'Dominica' }, 'Dominica and the Dominican Republic'),
    one('area-france', 'countries_area', { country: 'france' }, 'lower case'),
    one('area-missing', 'countries_area', { country: 'Atlantis' }, 'no match'),

    one('stock-weekday', 'stock_historical_price', { ticker: 'AAPL', date: '2024-01-12' }, 'a trading day'),
    one('stock-weekend', 'stock_historical_price', { ticker: 'AAPL', date: '2024-01-14' }, 'a Sunday: the Friday'),
    one('stock-holiday', 'stock_historical_price', { ticker: 'MSFT', date: '2023-12-25' }, 'a holiday'),
    one('stock-tokyo', 'stock_historical_price', { ticker: '7203.T', date: '2024-03-01' }, 'a yen ticker: the golden tools said USD'),
    one('stock-unknown', 'stock_historical_price', { ticker: 'NOPE', date: '2024-01-12' }, 'no such ticker'),
    one('volume-weekday', 'stock_volume', { ticker: 'AAPL', date: '2024-01-12' }, 'a trading day'),
    one('volume-weekend', 'stock_volume', { ticker: 'IBM', date: '2019-06-16' }, 'a Sunday'),
    one('volume-lower', 'stock_volume', { ticker: 'msft', date: '2022-03-03' }, 'lower-case ticker'),
    one('volume-paris', 'stock_volume', { ticker: 'MC.PA', date: '2021-05-05' }, 'another exchange'),
    one('volume-unknown', 'stock_volume', { ticker: 'NOPE', date: '2024-01-12' }, 'no such ticker'),

    one('crypto-btc', 'crypto_historical_price', { symbol: 'BTCUSDT', date: '2023-02-01' }, 'binance.us answers'),
    one('crypto-eth-lower', 'crypto_historical_price', { symbol: 'ethusdt', date: '2021-11-10' }, 'lower case'),
    one('crypto-not-on-us', 'crypto_historical_price', { symbol: 'ETHBTC', date: '2022-05-05' }, 'not on binance.us: binance.com answers'),
    one('crypto-before-listing', 'crypto_historical_price', { symbol: 'SOLUSDT', date: '2020-01-01' }, 'before the pair traded'),
    one('crypto-invalid', 'crypto_historical_price', { symbol: 'XXXUSDT', date: '2023-02-01' }, 'no such pair'),
    one('crypto-volume-btc', 'crypto_volume', { symbol: 'BTCUSDT', date: '2023-02-01' }, 'binance.us answers'),
    one('crypto-volume-bnb', 'crypto_volume', { symbol: 'BNBUSDT', date: '2019-03-03' }, 'another pair'),
    one('crypto-volume-not-on-us', 'crypto_volume', { symbol: 'ETHBTC', date: '2022-05-05' }, 'not on binance.us'),
    one('crypto-volume-listing-day', 'crypto_volume', { symbol: 'SOLUSDT', date: '2020-08-10' }, 'the day before listing: the next day answers'),
    one('crypto-volume-invalid', 'crypto_volume', { symbol: 'XXXUSDT', date: '2023-02-01' }, 'no such pair'),
  ];
}

/** The shape of a golden chain: its tools, the last step's output key and select, the step's argument keys. */
function shapeOf(steps: readonly GoldenStepLike[]): string {
  return steps.map((s) => `${s.tool_name}(${Object.keys(s.arguments).sort().join(',')}${s.arguments.select ? `:${JSON.stringify(s.arguments.select)}` : ''})->${s.output_key ?? ''}`).join(' | ');
}

/** Every argument shape of the legs' golden chains, each as the chains of up to `perShape` legs that use it. */
export function legCases(legs: readonly LoadedLeg[], perShape = 2): { cases: DifferentialCase[]; shapes: Map<string, number> } {
  const shapes = new Map<string, number>();
  const cases: DifferentialCase[] = [];
  for (const { id, leg } of legs) {
    for (const stop of leg.stops) {
      const chain = stop.bridge.tool_chain;
      if (stop.stop_type !== 'tool' || !chain.length) continue;
      const shape = shapeOf(chain);
      const seen = shapes.get(shape) ?? 0;
      shapes.set(shape, seen + 1);
      if (seen >= perShape) continue;
      cases.push({ id: `leg ${id}#${stop.index}`, steps: chain, golden: stop.extracted_value, note: shape });
    }
  }
  return { cases, shapes };
}
