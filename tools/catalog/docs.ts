import { param, type ToolDoc } from './types.js';

/**
 * What agents are told about each tool: the 19 AAR tools (paper, section 3.4 and appendix D), in the
 * paper's order. Kept apart from the argument schemas so that the in-container `tools` command carries
 * no validation library.
 */
export const TOOL_DOCS: readonly ToolDoc[] = [
  {
    name: 'fetch_webpage',
    group: 'web',
    summary: 'Fetch a web page and return it as Markdown; Wikipedia pages are read through the MediaWiki API with redirects followed.',
    returns: 'the page as Markdown, headed by its resolved title and URL',
    params: [
      param('url', 'string', true, 'absolute http(s) URL'),
      param('raw_html', 'boolean', false, 'return the HTML instead of Markdown (default false)'),
    ],
    example: { url: 'https://en.wikipedia.org/wiki/Mount_Everest' },
    runsIn: 'gateway',
  },
  {
    name: 'web_search',
    group: 'web',
    summary: 'Search the web (Google results through Serper).',
    returns: 'JSON with the organic results (title, link, snippet) and, when present, the answer box and knowledge graph',
    params: [
      param('query', 'string', true, 'search terms'),
      param('num_results', 'integer', false, 'number of results, 1-20 (default 5)'),
      param('gl', 'string', false, 'country code of the search (default "us")'),
      param('hl', 'string', false, 'language code of the search (default "en")'),
    ],
    example: { query: 'tallest mountain in Europe' },
    runsIn: 'gateway',
  },
  {
    name: 'maps_geocode',
    group: 'maps',
    summary: 'Turn an address or place name into coordinates (Google Geocoding).',
    returns: 'JSON with formatted_address, location {lat, lng} and place_id of the best matches',
    params: [param('address', 'string', true, 'address or place name')],
    example: { address: 'Mount Everest' },
    runsIn: 'gateway',
  },
  {
    name: 'maps_reverse_geocode',
    group: 'maps',
    summary: 'Turn coordinates into an address (Google Geocoding).',
    returns: 'JSON with formatted_address, place_id and address_components of the matches',
    params: [param('latitude', 'number', true, 'decimal degrees'), param('longitude', 'number', true, 'decimal degrees')],
    example: { latitude: 27.9881, longitude: 86.925 },
    runsIn: 'gateway',
  },
  {
    name: 'maps_search_places',
    group: 'maps',
    summary: 'Search places by text, optionally near a location (Google Places Text Search).',
    returns: 'JSON with a places array (name, formatted_address, location, place_id, rating, types) and its count',
    params: [
      param('query', 'string', true, 'what to look for, e.g. "museums in Lyon"'),
      param('location', 'string | {latitude, longitude}', false, 'bias results towards this place'),
      param('radius', 'number', false, 'search radius around location, in meters'),
    ],
    example: { query: 'hotels near Provincial Assembly of Balochistan' },
    runsIn: 'gateway',
  },
  {
    name: 'maps_place_details',
    group: 'maps',
    summary: 'Details of one place by its Google place_id.',
    returns: 'JSON with name, address, location, phone, website, rating and opening hours',
    params: [param('place_id', 'string', true, 'a place_id from maps_geocode or maps_search_places')],
    example: { place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4' },
    runsIn: 'gateway',
  },
  {
    name: 'maps_distance_matrix',
    group: 'maps',
    summary: 'Travel distance and duration between origins and destinations (Google Distance Matrix).',
    returns: 'JSON with origin_addresses, destination_addresses and, per pair, distance (km) and duration (minutes)',
    params: [
      param('origins', 'list of places', true, 'addresses or {latitude, longitude}'),
      param('destinations', 'list of places', true, 'addresses or {latitude, longitude}'),
      param('mode', 'string', false, 'driving (default), walking, bicycling or transit'),
    ],
    example: { origins: ['Paris, France'], destinations: ['Lyon, France'] },
    runsIn: 'gateway',
  },
  {
    name: 'maps_elevation',
    group: 'maps',
    summary: 'Elevation above sea level of one or more points (Google Elevation).',
    returns: 'JSON with, per point, elevation (meters), location and resolution',
    params: [param('locations', 'list of {latitude, longitude}', true, 'the points; a single latitude/longitude pair is accepted too')],
    example: { locations: [{ latitude: 27.9881, longitude: 86.925 }] },
    runsIn: 'gateway',
  },
  {
    name: 'maps_directions',
    group: 'maps',
    summary: 'Route between two places (Google Directions).',
    returns: 'JSON with routes: summary, distance (km), duration (minutes) and steps',
    params: [
      param('origin', 'string | {latitude, longitude}', true, 'start'),
      param('destination', 'string | {latitude, longitude}', true, 'end'),
      param('mode', 'string', false, 'driving (default), walking, bicycling or transit'),
    ],
    example: { origin: 'Kathmandu', destination: 'Pokhara', mode: 'driving' },
    runsIn: 'gateway',
  },
  {
    name: 'weather_historical',
    group: 'weather',
    summary: 'Daily weather of past dates at a point (Open-Meteo archive).',
    returns: 'JSON with daily arrays (time, temperature max/min/mean in deg C, precipitation in mm, sunshine duration in s), or the selected values',
    params: [
      param('latitude', 'number', true, 'decimal degrees'),
      param('longitude', 'number', true, 'decimal degrees'),
      param('start_date', 'string', true, 'first day, YYYY-MM-DD (or give `date` for a single day)'),
      param('end_date', 'string', false, 'last day, YYYY-MM-DD (default start_date)'),
      param('select', 'list of strings', false, 'dotted paths into the response, e.g. "daily.temperature_2m_max[0]"'),
    ],
    example: { latitude: 48.85, longitude: 2.35, start_date: '2024-01-15', end_date: '2024-01-15' },
    runsIn: 'gateway',
  },
  {
    name: 'weather_forecast',
    group: 'weather',
    summary: 'Current conditions and the daily forecast at a point (Open-Meteo).',
    returns: 'JSON with current temperature (deg C), humidity and weather code, and daily arrays for the coming days',
    params: [
      param('latitude', 'number', true, 'decimal degrees'),
      param('longitude', 'number', true, 'decimal degrees'),
      param('select', 'list of strings', false, 'dotted paths into the response'),
    ],
    example: { latitude: 48.85, longitude: 2.35 },
    runsIn: 'gateway',
  },
  {
    name: 'python_execute_code',
    group: 'code',
    summary: 'Run a Python 3 program inside your container and return what it prints.',
    returns: 'its stdout (and stderr, and the exit code when not 0)',
    params: [
      param('code', 'string', true, 'the program; print what you need'),
      param('timeout_seconds', 'number', false, 'time limit, 0.1-300 (default 30)'),
    ],
    example: { code: 'print(abs(2007 - 1945) % 10)' },
    runsIn: 'container',
  },
  {
    name: 'python_generate_code',
    group: 'code',
    summary: 'Ask a code model to write a standalone Python 3 program for a task (run it with python_execute_code).',
    returns: 'the program text, without Markdown fences',
    params: [
      param('description', 'string', true, 'what the program must do'),
      param('extra_instructions', 'string', false, 'constraints or notes'),
    ],
    example: { description: 'print the number of days between 1945-10-26 and 2007-01-01' },
    runsIn: 'gateway',
  },
  {
    name: 'countries_population',
    group: 'countries',
    summary: 'Population of a country (REST Countries).',
    returns: 'JSON with country (common name) and population',
    params: [param('country', 'string', true, 'country name, e.g. "France"')],
    example: { country: 'France' },
    runsIn: 'gateway',
  },
  {
    name: 'countries_area',
    group: 'countries',
    summary: 'Area of a country in km2 (REST Countries).',
    returns: 'JSON with country (common name) and area_km2',
    params: [param('country', 'string', true, 'country name, e.g. "France"')],
    example: { country: 'France' },
    runsIn: 'gateway',
  },
  {
    name: 'stock_historical_price',
    group: 'finance',
    summary: 'Closing price of a stock on a date; a weekend or holiday gives the previous trading day (Yahoo Finance).',
    returns: 'JSON with ticker, date (the trading day used), close_price and currency',
    params: [param('ticker', 'string', true, 'stock ticker, e.g. "AAPL"'), param('date', 'string', true, 'YYYY-MM-DD')],
    example: { ticker: 'AAPL', date: '2024-01-15' },
    runsIn: 'gateway',
  },
  {
    name: 'stock_volume',
    group: 'finance',
    summary: 'Trading volume of a stock on a date; a weekend or holiday gives the previous trading day (Yahoo Finance).',
    returns: 'JSON with ticker, date (the trading day used) and volume',
    params: [param('ticker', 'string', true, 'stock ticker, e.g. "AAPL"'), param('date', 'string', true, 'YYYY-MM-DD')],
    example: { ticker: 'AAPL', date: '2024-01-15' },
    runsIn: 'gateway',
  },
  {
    name: 'crypto_historical_price',
    group: 'finance',
    summary: 'Daily closing price of a crypto trading pair on a date (Binance klines, UTC days).',
    returns: 'JSON with symbol, date and close_price (in the quote asset)',
    params: [param('symbol', 'string', true, 'trading pair, e.g. "BTCUSDT"'), param('date', 'string', true, 'YYYY-MM-DD')],
    example: { symbol: 'BTCUSDT', date: '2024-06-15' },
    runsIn: 'gateway',
  },
  {
    name: 'crypto_volume',
    group: 'finance',
    summary: 'Daily trading volume of a crypto trading pair on a date (Binance klines, UTC days).',
    returns: 'JSON with symbol, date, volume (base asset) and quote_volume (quote asset)',
    params: [param('symbol', 'string', true, 'trading pair, e.g. "BTCUSDT"'), param('date', 'string', true, 'YYYY-MM-DD')],
    example: { symbol: 'BTCUSDT', date: '2024-06-15' },
    runsIn: 'gateway',
  },
];

/** Other names agents use for the same tools (the reference adapter's instruction says serper_search). */
export const TOOL_ALIASES: Readonly<Record<string, string>> = { serper_search: 'web_search' };

const byName = new Map(TOOL_DOCS.map((t) => [t.name, t]));

/** The tool a name refers to, following aliases; undefined for an unknown name. */
export function findToolDoc(name: string): ToolDoc | undefined {
  return byName.get(TOOL_ALIASES[name] ?? name);
}
