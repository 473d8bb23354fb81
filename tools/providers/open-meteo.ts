import { errorResult, formatSelected, formatWeather, okResult } from './formats.js';
import { selectPaths } from './select-path.js';
import type { ProviderContext, ToolProvider, ToolResult } from './types.js';
import { requestJson } from './upstream.js';

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

/** The keys agents see, in this order (the API's timing and offset metadata is left out). */
const KEPT_KEYS = ['latitude', 'longitude', 'elevation', 'timezone', 'current_units', 'current', 'daily_units', 'daily'];

function weatherObject(answer: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(KEPT_KEYS.filter((k) => answer[k] !== undefined).map((k) => [k, answer[k]]));
}

function answerWith(data: Record<string, unknown>, select: unknown): ToolResult {
  const weather = weatherObject(data);
  if (!Array.isArray(select) || select.length === 0) return okResult(formatWeather(weather));
  const picked = selectPaths(weather, select.map(String));
  return picked.ok ? okResult(formatSelected(picked.values)) : errorResult(picked.error);
}

async function historical(ctx: ProviderContext, args: Record<string, unknown>): Promise<ToolResult> {
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

async function forecast(ctx: ProviderContext, args: Record<string, unknown>): Promise<ToolResult> {
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

/** weather_historical (archive API) and weather_forecast (forecast API), times in the place's own time zone. */
export const openMeteoProvider: ToolProvider = {
  name: OPEN_METEO,
  call(tool, args, ctx) {
    if (tool === 'weather_historical') return historical(ctx, args);
    if (tool === 'weather_forecast') return forecast(ctx, args);
    return Promise.resolve(errorResult(`${OPEN_METEO} does not serve ${tool}`));
  },
};
