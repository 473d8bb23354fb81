import type { z } from 'zod';
import { pythonExecuteCodeArgs, pythonGenerateCodeArgs } from './code.js';
import {
  countriesAreaArgs,
  countriesPopulationArgs,
  cryptoHistoricalPriceArgs,
  cryptoVolumeArgs,
  stockHistoricalPriceArgs,
  stockVolumeArgs,
  weatherForecastArgs,
  weatherHistoricalArgs,
} from './data.js';
import { TOOL_ALIASES, TOOL_DOCS } from './docs.js';
import {
  mapsDirectionsArgs,
  mapsDistanceMatrixArgs,
  mapsElevationArgs,
  mapsGeocodeArgs,
  mapsPlaceDetailsArgs,
  mapsReverseGeocodeArgs,
  mapsSearchPlacesArgs,
} from './maps.js';
import type { ToolDefinition } from './types.js';
import { fetchWebpageArgs, webSearchArgs } from './web.js';

export * from './types.js';
export { TOOL_ALIASES, TOOL_DOCS, findToolDoc } from './docs.js';

const ARG_SCHEMAS: Record<string, z.ZodType> = {
  fetch_webpage: fetchWebpageArgs,
  web_search: webSearchArgs,
  maps_geocode: mapsGeocodeArgs,
  maps_reverse_geocode: mapsReverseGeocodeArgs,
  maps_search_places: mapsSearchPlacesArgs,
  maps_place_details: mapsPlaceDetailsArgs,
  maps_distance_matrix: mapsDistanceMatrixArgs,
  maps_elevation: mapsElevationArgs,
  maps_directions: mapsDirectionsArgs,
  weather_historical: weatherHistoricalArgs,
  weather_forecast: weatherForecastArgs,
  python_execute_code: pythonExecuteCodeArgs,
  python_generate_code: pythonGenerateCodeArgs,
  countries_population: countriesPopulationArgs,
  countries_area: countriesAreaArgs,
  stock_historical_price: stockHistoricalPriceArgs,
  stock_volume: stockVolumeArgs,
  crypto_historical_price: cryptoHistoricalPriceArgs,
  crypto_volume: cryptoVolumeArgs,
};

/** The 19 AAR tools with their argument schemas, in the paper's order. */
export const TOOLS: readonly ToolDefinition[] = TOOL_DOCS.map((doc) => ({ ...doc, args: ARG_SCHEMAS[doc.name] as ToolDefinition['args'] }));

const byName = new Map(TOOLS.map((t) => [t.name, t]));

/** The tool a name refers to, following aliases; undefined for an unknown name. */
export function findTool(name: string): ToolDefinition | undefined {
  return byName.get(TOOL_ALIASES[name] ?? name);
}

export type ArgsCheck = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/** Validates and normalises arguments; the error is one line, ready to be returned as `Error: ...`. */
export function checkToolArgs(tool: ToolDefinition, args: unknown): ArgsCheck {
  const parsed = tool.args.safeParse(args);
  if (parsed.success) return { ok: true, args: parsed.data };
  const problems = parsed.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
  return { ok: false, error: `invalid arguments for ${tool.name}: ${problems.join('; ')}` };
}
