import { z } from 'zod';
import { flattenPoint, isoDate, latitude, longitude } from './args.js';
import { formatSelected } from '../providers/formats.js';
import { defineTool } from './define.js';

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
      select: select().optional().describe('dotted paths into the response, e.g. "daily.temperature_2m_max[0]"'),
    }),
  ),
  example: { latitude: 48.85, longitude: 2.35, start_date: '2024-01-15', end_date: '2024-01-15' },
  synthetic: (a, value) => formatSelected(Object.fromEntries(((a.select as string[] | undefined) ?? ['daily.value[0]']).map((s, i) => [s, i === 0 ? value : null]))),
  runsIn: 'gateway',
  provider: 'open-meteo',
});

export const weatherForecast = defineTool({
  name: 'weather_forecast',
  group: 'weather',
  summary: 'Current conditions and the daily forecast at a point (Open-Meteo).',
  returns: 'JSON with current temperature (deg C), humidity and weather code, and daily arrays for the coming days',
  args: () => z.preprocess(flattenPoint, z.object({ latitude: latitude(), longitude: longitude(), select: select().optional().describe('dotted paths into the response') })),
  example: { latitude: 48.85, longitude: 2.35 },
  runsIn: 'gateway',
  provider: 'open-meteo',
});
