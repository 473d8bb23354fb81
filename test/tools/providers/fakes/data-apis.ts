import { json, type FakeReply, type LoggedRequest } from './server.js';

/** Open-Meteo archive (`/v1/archive`) and forecast (`/v1/forecast`) on one server. */

const UNITS: Record<string, string> = {
  time: 'iso8601',
  sunrise: 'iso8601',
  sunset: 'iso8601',
  precipitation_sum: 'mm',
  rain_sum: 'mm',
  snowfall_sum: 'cm',
  precipitation_hours: 'h',
  sunshine_duration: 's',
  daylight_duration: 's',
  wind_speed_10m_max: 'km/h',
  weather_code: 'wmo code',
  relative_humidity_2m: '%',
};
const unitOf = (v: string) => UNITS[v] ?? (v.includes('temperature') ? '°C' : v.includes('wind') ? 'km/h' : 'mm');

/** Day i of a series: a deterministic value per variable (sunshine on day 0 is 2327.99 s). */
function value(variable: string, date: string, i: number): unknown {
  if (variable === 'sunrise') return `${date}T08:44`;
  if (variable === 'sunset') return `${date}T17:05`;
  if (variable === 'sunshine_duration') return Math.round((2327.99 + i * 100) * 100) / 100;
  if (variable === 'daylight_duration') return 30127.4 + i;
  if (variable === 'weather_code') return 3;
  if (variable.includes('temperature')) return Math.round((5.2 + i + (variable.endsWith('min') ? -4 : 0)) * 10) / 10;
  return Math.round(i * 0.3 * 10) / 10;
}

function dates(start: string, end: string): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${start}T00:00:00Z`); t <= Date.parse(`${end}T00:00:00Z`); t += 86_400_000) out.push(new Date(t).toISOString().slice(0, 10));
  return out;
}

function series(variables: string[], days: string[]) {
  const daily: Record<string, unknown[]> = { time: days };
  for (const v of variables) daily[v] = days.map((d, i) => value(v, d, i));
  return { daily_units: Object.fromEntries(['time', ...variables].map((v) => [v, unitOf(v)])), daily };
}

const place = (q: Record<string, string>) => ({
  latitude: Math.round(Number(q.latitude) * 100) / 100 + 0.004,
  longitude: Math.round(Number(q.longitude) * 100) / 100 - 0.003,
  generationtime_ms: 0.123,
  utc_offset_seconds: 3600,
  timezone: q.timezone === 'auto' ? 'Europe/Paris' : 'GMT',
  timezone_abbreviation: 'GMT+1',
  elevation: 43,
});

const reject = (reason: string): FakeReply => json({ error: true, reason }, 400);

export function openMeteoHandler(req: LoggedRequest): FakeReply {
  const q = req.query;
  const variables = (q.daily ?? '').split(',').filter(Boolean);
  const unknown = variables.find((v) => !(v in UNITS) && !v.includes('temperature'));
  if (unknown) return reject(`Data corrupted at path ''. Cannot initialize ForecastVariableDaily from invalid String value ${unknown}.`);
  if (req.path === '/v1/archive') {
    if (!q.start_date || q.start_date < '1940-01-01') return reject("Parameter 'start_date' is out of allowed range from 1940-01-01 to 2026-03-01");
    return json({ ...place(q), ...series(variables, dates(q.start_date, q.end_date ?? q.start_date)) });
  }
  if (req.path === '/v1/forecast') {
    const current = (q.current ?? '').split(',').filter(Boolean);
    const days = dates('2026-03-15', '2026-03-21');
    return json({
      ...place(q),
      current_units: Object.fromEntries(['time', 'interval', ...current].map((v) => [v, v === 'interval' ? 'seconds' : unitOf(v)])),
      current: { time: '2026-03-15T10:45', interval: 900, ...Object.fromEntries(current.map((v) => [v, v === 'relative_humidity_2m' ? 71 : 11.4])) },
      ...series(variables, days),
    });
  }
  return reject('Not found');
}

/**
 * REST Countries v3.1 `/name/<name>` with `fullText` and `fields`, matches in the API's own order (not by
 * relevance): "United States" finds the Virgin Islands first, as the real API did when the golden values were made.
 */
export const COUNTRIES = [
  { name: { common: 'United States Virgin Islands', official: 'Virgin Islands of the United States' }, population: 87146, area: 347 },
  { name: { common: 'United States Minor Outlying Islands', official: 'United States Minor Outlying Islands' }, population: 300, area: 34.2 },
  { name: { common: 'United States', official: 'United States of America' }, population: 340110988, area: 9525067 },
  { name: { common: 'Denmark', official: 'Kingdom of Denmark' }, population: 6011488, area: 43094 },
  { name: { common: 'Guinea', official: 'Republic of Guinea' }, population: 14363931, area: 245857 },
  { name: { common: 'Equatorial Guinea', official: 'Republic of Equatorial Guinea' }, population: 1795834, area: 28051 },
  { name: { common: 'Papua New Guinea', official: 'Independent State of Papua New Guinea' }, population: 11781559, area: 462840 },
  { name: { common: 'Côte d’Ivoire', official: "Republic of Côte d'Ivoire" }, population: 31719275, area: 322463 },
];

export function restCountriesHandler(req: LoggedRequest): FakeReply {
  const m = /^\/v3\.1\/name\/(.+)$/.exec(req.path);
  if (!m) return json({ status: 404, message: 'Page Not Found' }, 404);
  const wanted = m[1].toLowerCase();
  const names = (c: (typeof COUNTRIES)[number]) => [c.name.common.toLowerCase(), c.name.official.toLowerCase()];
  const hits = COUNTRIES.filter((c) => (req.query.fullText === 'true' ? names(c).includes(wanted) : names(c).some((n) => n.includes(wanted))));
  if (!hits.length) return json({ status: 404, message: 'Not Found' }, 404);
  const fields = req.query.fields ? req.query.fields.split(',') : undefined;
  return json(hits.map((c) => (fields ? Object.fromEntries(Object.entries(c).filter(([k]) => fields.includes(k))) : c)));
}
