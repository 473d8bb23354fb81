import { z } from 'zod';
import { flattenPoint, isoDate, latitude, longitude } from './args.js';
import { jsonText, okResult } from '../providers/formats.js';
import { selectPaths } from '../providers/select-path.js';
import type { ProviderContext, ToolResult } from '../providers/types.js';
import { requestJson } from '../providers/upstream.js';
import { defineTool } from './define.js';

/**
 * weather_historical without `select`: Open-Meteo's archive answer (`latitude`, `longitude`, `utc_offset_seconds`,
 * `timezone`, `timezone_abbreviation`, `elevation`, `daily_units`, `daily`: `time` and one array per variable),
 * less `generationtime_ms` (the server's own timing). weather_forecast's adds `current_units` and `current`.
 * Units are Open-Meteo's: deg C, mm, cm (snowfall), s (durations), km/h, ISO 8601 local times.
 * With `select`: `{"<selector>": value, ...}` in the order given, e.g. `{"daily.sunshine_duration[0]": 2327.99}`,
 * a path that leads nowhere giving null (tools/providers/select-path.ts).
 */
export const formatWeather = (data: object): string => jsonText(data);
export const formatSelected = (values: Record<string, unknown>): string => jsonText(values);

const OPEN_METEO = 'open-meteo';

/** Daily variables of weather_historical (the AAR legs select sunshine_duration, precipitation_sum, snowfall_sum). */
export const HISTORICAL_DAILY = [
  'temperature_2m_max',
  'temperature_2m_min',
  'temperature_2m_mean',
  'apparent_temperature_max',
  'apparent_temperature_min',
  'apparent_temperature_mean',
  'precipitation_sum',
  'rain_sum',
  'snowfall_sum',
  'precipitation_hours',
  'sunshine_duration',
  'daylight_duration',
  'sunrise',
  'sunset',
  'wind_speed_10m_max',
] as const;

export const FORECAST_CURRENT = ['temperature_2m', 'relative_humidity_2m', 'apparent_temperature', 'precipitation', 'weather_code', 'wind_speed_10m'] as const;
export const FORECAST_DAILY = [
  'weather_code',
  'temperature_2m_max',
  'temperature_2m_min',
  'precipitation_sum',
  'rain_sum',
  'snowfall_sum',
  'sunshine_duration',
  'sunrise',
  'sunset',
  'wind_speed_10m_max',
] as const;

/** Fields of Open-Meteo's answer about the server, not the weather: left out. */
const SERVER_FIELDS = new Set(['generationtime_ms']);

/** The answer, or with `select` the selected values (resolved against the whole answer, as the golden values' tool did). */
function answerWith(data: Record<string, unknown>, select: unknown): ToolResult {
  if (!Array.isArray(select) || select.length === 0) return okResult(formatWeather(Object.fromEntries(Object.entries(data).filter(([k]) => !SERVER_FIELDS.has(k)))));
  return okResult(formatSelected(selectPaths(data, select.map(String))));
}

/** weather_historical (archive API), times in the place's own time zone. */
async function historical(args: Record<string, unknown>, ctx: ProviderContext): Promise<ToolResult> {
  const query = {
    latitude: Number(args.latitude),
    longitude: Number(args.longitude),
    start_date: String(args.start_date),
    end_date: String(args.end_date ?? args.start_date),
    daily: HISTORICAL_DAILY.join(','),
    timezone: 'auto',
  };
  const r = await requestJson<Record<string, unknown>>(ctx, OPEN_METEO, { url: `${ctx.endpoints.openMeteoArchive}/archive`, query }, 'Open-Meteo archive request');
  return r.ok ? answerWith(r.data, args.select) : r.result;
}

/** weather_forecast (forecast API), times in the place's own time zone. */
async function forecast(args: Record<string, unknown>, ctx: ProviderContext): Promise<ToolResult> {
  const query = {
    latitude: Number(args.latitude),
    longitude: Number(args.longitude),
    current: FORECAST_CURRENT.join(','),
    daily: FORECAST_DAILY.join(','),
    timezone: 'auto',
  };
  const r = await requestJson<Record<string, unknown>>(ctx, OPEN_METEO, { url: `${ctx.endpoints.openMeteoForecast}/forecast`, query }, 'Open-Meteo forecast request');
  return r.ok ? answerWith(r.data, args.select) : r.result;
}


const select = () => z.preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.string()));

export const weatherHistorical = defineTool({
  name: 'weather_historical',
  group: 'weather',
  summary: 'Daily weather of past dates at a point (Open-Meteo archive).',
  returns: 'JSON with daily arrays (time, temperature max/min/mean in deg C, precipitation in mm, sunshine duration in s), or the selected values',
  args: () => z.preprocess(
    (v) => {
      const o = flattenPoint(v);
      if (!o || typeof o !== 'object') return o;
      const r = o as Record<string, unknown>;
      const start = r.start_date ?? r.date;
      return { ...r, start_date: start, end_date: r.end_date ?? start };
    },
    z.object({
      latitude: latitude(),
      longitude: longitude(),
      start_date: isoDate().describe('first day, YYYY-MM-DD (or give `date` for a single day)'),
      end_date: isoDate().optional().describe('last day, YYYY-MM-DD (default start_date)'),
      select: select().optional().describe('dotted paths into the response, e.g. "daily.temperature_2m_max[0]" (null where a path leads nowhere)'),
    }),
  ),
  example: { latitude: 48.85, longitude: 2.35, start_date: '2024-01-15', end_date: '2024-01-15' },
  synthetic: (a, value) => formatSelected(Object.fromEntries(((a.select as string[] | undefined) ?? ['daily.value[0]']).map((s, i) => [s, i === 0 ? value : null]))),
  runsIn: 'gateway',
  provider: OPEN_METEO,
  run: historical,
});

export const weatherForecast = defineTool({
  name: 'weather_forecast',
  group: 'weather',
  summary: 'Current conditions and the daily forecast at a point (Open-Meteo).',
  returns: 'JSON with current temperature (deg C), humidity and weather code, and daily arrays for the coming days',
  args: () => z.preprocess(flattenPoint, z.object({ latitude: latitude(), longitude: longitude(), select: select().optional().describe('dotted paths into the response') })),
  example: { latitude: 48.85, longitude: 2.35 },
  runsIn: 'gateway',
  provider: OPEN_METEO,
  run: forecast,
});
