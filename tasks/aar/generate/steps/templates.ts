import type { JsonValue, ToolStep } from '../../schema.js';

/**
 * The 17 roadblock templates of the paper's appendix D (Table 6), each composing one to three tools. A
 * template turns its inputs into a golden tool chain whose steps pass values on by the `__from_previous*`
 * keys (resolved by world/golden-calls.ts, the same code the oracle runs). The stop's value is read from the
 * chain's last answer as the golden executor reads it (world/golden-value.ts, after the authors' golden.py).
 */

export interface TemplateInputs {
  location?: string;
  location2?: string;
  /** ISO date. */
  date?: string;
  number?: number;
  country?: string;
  ticker?: string;
  crypto?: string;
  /** A kind of place for nearby_poi_count ("museums"). */
  poi?: string;
}

export type TemplateNeed = keyof Omit<TemplateInputs, 'poi'>;

export interface RoadblockTemplate {
  name: string;
  needs: readonly TemplateNeed[];
  /** The chain, the stop's extraction_target and the output_key naming what the last step yields. */
  build(inputs: TemplateInputs): { chain: ToolStep[]; target: string; output: string };
}

/** The reference date of date_computation: fixed, so a leg's value never depends on the day it was made. */
export const REFERENCE_DATE = '2025-01-01';
export const POI_KINDS = ['museums', 'hotels', 'parks', 'restaurants', 'churches'] as const;

const step = (tool_name: string, args: Record<string, JsonValue>, output_key: string): ToolStep => ({ tool_name, arguments: args, expected_output: null, output_key });
const geocode = (address: string, key = 'coords'): ToolStep => step('maps_geocode', { address }, key);

const weather = (name: string, variable: string, what: string): RoadblockTemplate => ({
  name,
  needs: ['location', 'date'],
  build: ({ location, date }) => ({
    chain: [geocode(location!), step('weather_historical', { __from_previous: 'coords', start_date: date!, end_date: date!, select: [`daily.${variable}[0]`] }, variable)],
    target: `Find the ${what} at ${location} on ${date}`,
    output: variable,
  }),
});

const market = (name: string, tool: string, need: 'ticker' | 'crypto', field: string, what: string): RoadblockTemplate => ({
  name,
  needs: [need, 'date'],
  build: (i) => {
    const symbol = need === 'ticker' ? i.ticker! : i.crypto!;
    return { chain: [step(tool, { [need === 'ticker' ? 'ticker' : 'symbol']: symbol, date: i.date! }, field)], target: `Look up the ${what} of ${symbol} on ${i.date}`, output: field };
  },
});

export const TEMPLATES: readonly RoadblockTemplate[] = [
  {
    name: 'geocode_elevation',
    needs: ['location'],
    build: ({ location }) => ({ chain: [geocode(location!), step('maps_elevation', { __from_previous_as_locations: 'coords' }, 'elevation')], target: `Look up the elevation of ${location}`, output: 'elevation' }),
  },
  weather('geocode_weather_historical', 'temperature_2m_max', 'maximum temperature (deg C)'),
  weather('geocode_weather_precipitation', 'precipitation_sum', 'total precipitation (mm)'),
  {
    name: 'geocode_distance',
    needs: ['location', 'location2'],
    build: ({ location, location2 }) => ({
      chain: [geocode(location!, 'coords_a'), geocode(location2!, 'coords_b'), step('maps_distance_matrix', { __from_previous_as_origins_destinations: ['coords_a', 'coords_b'] }, 'distance_km')],
      target: `Calculate the driving distance in km between ${location} and ${location2}`,
      output: 'distance_km',
    }),
  },
  {
    name: 'geocode_directions_duration',
    needs: ['location', 'location2'],
    build: ({ location, location2 }) => ({ chain: [step('maps_directions', { origin: location!, destination: location2!, mode: 'driving' }, 'duration')], target: `Get the driving time in minutes from ${location} to ${location2}`, output: 'duration' }),
  },
  {
    name: 'date_computation',
    needs: ['date'],
    build: ({ date }) => ({
      chain: [step('python_execute_code', { code: `from datetime import date\nd1 = date.fromisoformat('${date}')\nd2 = date.fromisoformat('${REFERENCE_DATE}')\nresult = abs((d2 - d1).days)\nprint(result)` }, 'days')],
      target: `Calculate the number of days between ${date} and ${REFERENCE_DATE}`,
      output: 'days',
    }),
  },
  {
    name: 'math_conversion',
    needs: ['number'],
    build: ({ number }) => ({
      chain: [step('python_execute_code', { code: `value = ${number}\nresult = int(value * 3.28084)\nprint(result)` }, 'converted')],
      target: `Convert ${number} metres to feet (whole feet)`,
      output: 'converted',
    }),
  },
  {
    name: 'nearby_poi_count',
    needs: ['location'],
    build: ({ location, poi }) => ({ chain: [step('maps_search_places', { query: `${poi ?? 'museums'} near ${location}` }, 'poi_count')], target: `Count the ${poi ?? 'museums'} near ${location}`, output: 'poi_count' }),
  },
  {
    name: 'place_rating',
    needs: ['location'],
    build: ({ location }) => ({ chain: [step('maps_search_places', { query: location! }, 'place_rating')], target: `Look up the map rating of ${location}`, output: 'place_rating' }),
  },
  {
    name: 'country_population',
    needs: ['country'],
    build: ({ country }) => ({ chain: [step('countries_population', { country: country! }, 'population')], target: `Look up the population of ${country}`, output: 'population' }),
  },
  {
    name: 'country_area',
    needs: ['country'],
    build: ({ country }) => ({ chain: [step('countries_area', { country: country! }, 'area_km2')], target: `Look up the area of ${country} in km2`, output: 'area_km2' }),
  },
  weather('historical_snowfall', 'snowfall_sum', 'snowfall (cm)'),
  weather('historical_sunshine', 'sunshine_duration', 'sunshine duration (s)'),
  market('stock_price', 'stock_historical_price', 'ticker', 'close_price', 'closing price'),
  market('stock_volume', 'stock_volume', 'ticker', 'volume', 'trading volume'),
  market('crypto_price', 'crypto_historical_price', 'crypto', 'close_price', 'closing price'),
  market('crypto_volume', 'crypto_volume', 'crypto', 'volume', '24h trading volume'),
];

export const templateNamed = (name: string): RoadblockTemplate => {
  const t = TEMPLATES.find((x) => x.name === name);
  if (!t) throw new Error(`no roadblock template ${name}`);
  return t;
};

/** A date moved back to the Friday before when it falls on a weekend (markets do not trade then). */
export function tradingDay(iso: string): string {
  const d = new Date(`${iso}T00:00:00Z`);
  const back = d.getUTCDay() === 6 ? 1 : d.getUTCDay() === 0 ? 2 : 0;
  return new Date(d.getTime() - back * 86_400_000).toISOString().slice(0, 10);
}
