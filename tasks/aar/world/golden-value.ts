/**
 * The value a golden chain's last step yields, read from the tool's output the way the AAR authors' golden
 * executor read it from theirs (their `src/trail/golden.py`: the field each tool's value sits in, by the step's
 * `output_key` where one tool yields several): a route's whole minutes from its seconds, a place search's count
 * or first rating, a weather selector's value, and so on. Where the field is not there, the value is the whole
 * parsed answer, as theirs fell back to (two released legs hold such an answer as their golden value).
 */

export type ChainValue = { ok: true; value: unknown } | { ok: false; reason: string };

const isObject = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v);
const num = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? n : undefined;
};

/** The weather selectors the legs use, in the order the golden executor tried them. */
const WEATHER_SELECTORS = ['daily.precipitation_sum[0]', 'daily.snowfall_sum[0]', 'daily.sunshine_duration[0]'];

function fromJson(tool: string, outputKey: string | null | undefined, data: Record<string, any>): unknown {
  switch (tool) {
    case 'maps_elevation': {
      const e = num(data.elevation ?? data.results?.[0]?.elevation);
      return e;
    }
    case 'maps_distance_matrix': {
      const direct = data.distance ?? data.distance_km;
      if (direct !== undefined && direct !== null) return isObject(direct) ? (num(direct.value) ?? 0) / 1000 : num(direct);
      const element = data.results?.[0]?.elements?.[0];
      if (isObject(element) && isObject(element.distance)) return (num(element.distance.value) ?? 0) / 1000;
      return undefined;
    }
    case 'maps_directions': {
      const duration = data.routes?.[0]?.duration;
      if (isObject(duration) && num(duration.value) !== undefined) return Math.trunc(num(duration.value)! / 60);
      if (typeof duration === 'number') return Math.trunc(duration);
      return undefined;
    }
    case 'maps_search_places': {
      const places: any[] = Array.isArray(data.places) ? data.places : [];
      if (outputKey === 'poi_count') return places.length;
      if (outputKey === 'place_rating') return num(places[0]?.rating) ?? 0;
      return undefined;
    }
    case 'countries_population': {
      const n = num(data.population);
      return n === undefined ? undefined : Math.trunc(n);
    }
    case 'countries_area':
      return num(data.area_km2);
    case 'stock_historical_price':
    case 'crypto_historical_price':
      return num(data.close_price);
    case 'stock_volume': {
      const n = num(data.volume);
      return n === undefined ? undefined : Math.trunc(n);
    }
    case 'crypto_volume':
      return num(data.volume);
    case 'weather_historical': {
      for (const s of WEATHER_SELECTORS) if (data[s] !== undefined && data[s] !== null) return num(data[s]);
      const t = data.temperature_2m_max ?? data.max_temp ?? data.temperature;
      return num(Array.isArray(t) ? t[0] : t);
    }
    default:
      return undefined;
  }
}

/** What a printed Python value reads as: an int, a float (when it has a "."), else the text. */
export function printedValue(text: string): unknown {
  const stripped = text.trim();
  if (/^[+-]?\d+$/.test(stripped)) return Number(stripped);
  if (stripped.includes('.') && Number.isFinite(Number(stripped))) return Number(stripped);
  return stripped;
}

/**
 * The answers a text holds: one, or several one after the other (a synthetic store's answer for a leg that
 * asks one call twice expecting two values holds both, one per line: tasks/aar/world/synthesize.ts).
 */
export function answersOf(text: string): string[] {
  const parts = text.split(/\n(?=\{)/);
  return parts.length > 1 && parts.every((p) => p.trim().startsWith('{') && isJson(p)) ? parts : [text];
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The value of a chain's last step, from the text the tool answered. */
export function chainValue(tool: string, outputKey: string | null | undefined, text: string): ChainValue {
  if (text.startsWith('Error:')) return { ok: false, reason: text.split('\n')[0] };
  if (tool === 'python_execute_code') {
    // The MCP server answers {"stdout", "stderr", "exit_code"}; ours (as the Harbor adapter) what was printed.
    try {
      const data = JSON.parse(text) as { stdout?: unknown; exit_code?: unknown };
      if (isObject(data) && typeof data.stdout === 'string') return data.exit_code === 0 ? { ok: true, value: printedValue(data.stdout) } : { ok: false, reason: `exit code ${String(data.exit_code)}` };
    } catch {
      // not JSON: the printed text itself
    }
    return /^Exit code: \d+/.test(text) ? { ok: false, reason: text.split('\n')[0] } : { ok: true, value: printedValue(text) };
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    const n = /[-+]?\d+\.?\d*/.exec(text);
    return n ? { ok: true, value: Number(n[0]) } : { ok: false, reason: `${tool} answered no value` };
  }
  if (!isObject(data)) return { ok: true, value: data };
  const value = fromJson(tool, outputKey, data);
  return { ok: true, value: value === undefined ? data : value };
}

/** Two stop values are the same golden value: numbers by value (20 and 20.0 agree), anything else by its JSON. */
export function sameGoldenValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (isObject(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical(v[k])]));
  return v;
}
