/**
 * The paper's roadblock templates (its Table 6) as the leg structure shows them: a tool stop's chain of tool
 * names, and where one chain serves several templates, its last step's `output_key` (or, for weather, the
 * `select` argument). A chain that fits several templates and carries neither is named by all of them, and
 * the table says so, rather than pooling them under one name.
 */

interface TemplateRule {
  name: string;
  chain: string;
  /** Tells this template from others on the same chain: the last step's output_key, or a part of its `select`. */
  key?: string;
}

/** Not one of the paper's 17: the AAR-DAG stop that combines two diamond branches in python_execute_code. */
export const DIAMOND_MERGE = 'diamond_merge';

const RULES: readonly TemplateRule[] = [
  { name: 'geocode_elevation', chain: 'maps_geocode > maps_elevation' },
  { name: 'geocode_weather_historical', chain: 'maps_geocode > weather_historical', key: 'temperature' },
  { name: 'geocode_weather_precipitation', chain: 'maps_geocode > weather_historical', key: 'precipitation' },
  { name: 'historical_snowfall', chain: 'maps_geocode > weather_historical', key: 'snowfall' },
  { name: 'historical_sunshine', chain: 'maps_geocode > weather_historical', key: 'sunshine' },
  { name: 'geocode_distance', chain: 'maps_geocode > maps_geocode > maps_distance_matrix' },
  { name: 'geocode_directions_duration', chain: 'maps_directions' },
  { name: 'date_computation', chain: 'python_execute_code', key: 'days' },
  { name: 'math_conversion', chain: 'python_execute_code', key: 'converted' },
  { name: DIAMOND_MERGE, chain: 'python_execute_code', key: 'merged' },
  { name: 'nearby_poi_count', chain: 'maps_search_places', key: 'poi_count' },
  { name: 'place_rating', chain: 'maps_search_places', key: 'place_rating' },
  { name: 'country_population', chain: 'countries_population' },
  { name: 'country_area', chain: 'countries_area' },
  { name: 'stock_price', chain: 'stock_historical_price' },
  { name: 'stock_volume', chain: 'stock_volume' },
  { name: 'crypto_price', chain: 'crypto_historical_price' },
  { name: 'crypto_volume', chain: 'crypto_volume' },
];

/** What a template is read from: the chain's steps, each a tool name, and the last one's output key and arguments. */
export interface ChainStep {
  tool_name: string;
  output_key?: string | null;
  arguments?: Record<string, unknown>;
}

/** A tool stop's template: the paper's name, several names joined by " | " when the leg cannot tell them apart, or the chain itself. */
export interface StopTemplate {
  name: string;
  /** The tool names in order, e.g. `maps_geocode > maps_elevation`. */
  chain: string;
  /** Several of the paper's templates fit and nothing in the leg tells which. */
  ambiguous: boolean;
  /** Not one of the paper's 17 templates (the DAG's merge, or a chain the paper does not list). */
  outsidePaper: boolean;
}

export function templateOf(steps: readonly ChainStep[]): StopTemplate {
  const chain = steps.map((s) => s.tool_name).join(' > ');
  const candidates = RULES.filter((r) => r.chain === chain);
  if (!candidates.length) return { name: chain || '(empty tool chain)', chain, ambiguous: false, outsidePaper: true };
  const last = steps[steps.length - 1];
  const select = JSON.stringify(last.arguments?.select ?? null);
  const fits = candidates.length === 1 ? candidates : candidates.filter((r) => r.key !== undefined && (last.output_key === r.key || select.includes(r.key)));
  if (fits.length === 1) return { name: fits[0].name, chain, ambiguous: false, outsidePaper: fits[0].name === DIAMOND_MERGE };
  const names = (fits.length ? fits : candidates).map((r) => r.name);
  return { name: names.join(' | '), chain, ambiguous: true, outsidePaper: false };
}
