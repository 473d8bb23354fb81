import { factKeys, normText, pointKey, type UpstreamFacts } from './facts.js';
import { between, json, unit, type StandInReply, type StandInRequest } from './reply.js';

/**
 * Open-Meteo (archive and forecast) and REST Countries as stand-ins (markets.ts: Yahoo Finance and Binance):
 * their answers' whole shape, values from the world's facts where a golden chain reads one, made up otherwise.
 */

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (date: string) => Date.parse(`${date}T00:00:00Z`);

// ---- Open-Meteo ----

const UNITS: Record<string, string> = {
  time: 'iso8601', sunrise: 'iso8601', sunset: 'iso8601', precipitation_sum: 'mm', rain_sum: 'mm', showers_sum: 'mm', snowfall_sum: 'cm',
  precipitation_hours: 'h', sunshine_duration: 's', daylight_duration: 's', wind_speed_10m_max: 'km/h', wind_gusts_10m_max: 'km/h',
  weather_code: 'wmo code', relative_humidity_2m: '%', interval: 'seconds', wind_speed_10m: 'km/h', precipitation: 'mm',
};
const unitOf = (v: string) => UNITS[v] ?? (v.includes('temperature') ? '°C' : undefined);

function made(variable: string, point: string, date: string): unknown {
  const seed = `${variable} ${point} ${date}`;
  if (variable === 'sunrise') return `${date}T0${between(seed, 5, 8)}:${String(between(`m ${seed}`, 10, 59))}`;
  if (variable === 'sunset') return `${date}T${between(seed, 16, 20)}:${String(between(`m ${seed}`, 10, 59))}`;
  if (variable === 'weather_code') return [0, 1, 2, 3, 45, 51, 61, 71][between(seed, 0, 7)];
  if (variable === 'daylight_duration') return Math.round((30_000 + unit(seed) * 23_000) * 100) / 100;
  if (variable === 'sunshine_duration') return Math.round(unit(seed) * 40_000 * 100) / 100;
  if (variable.includes('temperature')) return Math.round((-5 + unit(seed) * 35) * 10) / 10;
  if (variable === 'precipitation_hours') return between(seed, 0, 12);
  if (variable === 'relative_humidity_2m') return between(seed, 30, 95);
  return unit(seed) < 0.5 ? 0 : Math.round(unit(`v ${seed}`) * 120) / 10;
}

let generation = 0;
/** Open-Meteo's grid: answers name the cell's centre, not the point asked for. */
const snap = (v: number) => Math.round(v / 0.0625) * 0.0625 + 0.003;
function placeOf(q: Record<string, string>) {
  const lat = Number(q.latitude);
  const lng = Number(q.longitude);
  const hours = Math.round(lng / 15);
  return {
    latitude: Math.round(snap(lat) * 1e6) / 1e6,
    longitude: Math.round(snap(lng) * 1e6) / 1e6,
    // The server's own timing: different for every answer, as Open-Meteo's is.
    generationtime_ms: Math.round((0.05 + ((generation++ * 0.37) % 1.5)) * 1e4) / 1e4,
    utc_offset_seconds: q.timezone === 'auto' ? hours * 3600 : 0,
    timezone: q.timezone === 'auto' ? (hours === 0 ? 'GMT' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`) : (q.timezone ?? 'GMT'),
    timezone_abbreviation: q.timezone === 'auto' ? (hours === 0 ? 'GMT' : `GMT${hours > 0 ? '+' : '-'}${Math.abs(hours)}`) : 'GMT',
    elevation: between(`elev ${q.latitude},${q.longitude}`, 0, 1800),
  };
}

function series(facts: UpstreamFacts, variables: string[], days: string[], lat: number, lng: number) {
  const daily: Record<string, unknown[]> = { time: days };
  for (const v of variables) {
    daily[v] = days.map((d) => {
      const fact = facts.values.get(factKeys.weather(lat, lng, d, v));
      return typeof fact === 'number' ? fact : made(v, pointKey(lat, lng), d);
    });
  }
  return { daily_units: Object.fromEntries(['time', ...variables].map((v) => [v, unitOf(v)])), daily };
}

const meteoError = (reason: string): StandInReply => json({ error: true, reason }, 400);

export function openMeteo(facts: UpstreamFacts, which: 'archive' | 'forecast') {
  return (req: StandInRequest): StandInReply => {
    const q = req.query;
    const path = which === 'archive' ? '/v1/archive' : '/v1/forecast';
    if (req.path !== path) return json({ error: true, reason: 'Not Found' }, 404);
    const lat = Number(q.latitude);
    const lng = Number(q.longitude);
    if (!Number.isFinite(lat) || !Number.isFinite(lng) || Math.abs(lat) > 90 || Math.abs(lng) > 180) return meteoError(`Latitude must be in range of -90 to 90°. Given: ${q.latitude}.`);
    const variables = (q.daily ?? '').split(',').filter(Boolean);
    const unknown = variables.find((v) => !unitOf(v));
    if (unknown) return meteoError(`Data corrupted at path ''. Cannot initialize ForecastVariableDaily from invalid String value ${unknown}.`);
    if (which === 'archive') {
      const start = q.start_date;
      const end = q.end_date;
      if (!start || !end) return meteoError("Parameter 'start_date' and 'end_date' are required");
      if (start < '1940-01-01' || end > '2026-03-20') return meteoError(`Parameter 'start_date' is out of allowed range from 1940-01-01 to 2026-03-20`);
      if (end < start) return meteoError('End-date must be larger or equals than start-date');
      const days: string[] = [];
      for (let t = dayMs(start); t <= dayMs(end) && days.length < 400; t += DAY_MS) days.push(isoDay(t));
      return json({ ...placeOf(q), ...series(facts, variables, days, lat, lng) });
    }
    const current = (q.current ?? '').split(',').filter(Boolean);
    const days = Array.from({ length: 7 }, (_, i) => isoDay(dayMs('2026-03-15') + i * DAY_MS));
    return json({
      ...placeOf(q),
      ...(current.length
        ? {
            current_units: Object.fromEntries(['time', 'interval', ...current].map((v) => [v, unitOf(v) ?? 'undefined'])),
            current: { time: '2026-03-15T10:45', interval: 900, ...Object.fromEntries(current.map((v) => [v, made(v, pointKey(lat, lng), 'now')])) },
          }
        : {}),
      ...series(facts, variables, days, lat, lng),
    });
  };
}

// ---- REST Countries ----

interface CountryRecord {
  name: { common: string; official: string; nativeName?: Record<string, { official: string; common: string }> };
  population: number;
  area: number;
  capital?: string[];
  region?: string;
  subregion?: string;
  latlng?: [number, number];
  currencies?: Record<string, { name: string; symbol: string }>;
  languages?: Record<string, string>;
  timezones?: string[];
}

const country = (common: string, official: string, population: number, area: number, capital: string, region: string, subregion: string, currency: [string, string, string], language: [string, string], timezone: string, latlng: [number, number]): CountryRecord => ({
  name: { common, official, nativeName: { [language[0]]: { official, common } } },
  population,
  area,
  capital: [capital],
  region,
  subregion,
  latlng,
  currencies: { [currency[0]]: { name: currency[1], symbol: currency[2] } },
  languages: { [language[0]]: language[1] },
  timezones: [timezone],
});

/**
 * Countries in the API's own order (not by relevance or size): a name search answers its matches in this order,
 * so "United States" finds the Virgin Islands first, as the real API did when the golden values were made.
 */
const USD: [string, string, string] = ['USD', 'United States dollar', '$'];
const ENG: [string, string] = ['eng', 'English'];
export const COUNTRIES: CountryRecord[] = [
  country('United States Virgin Islands', 'Virgin Islands of the United States', 87146, 347, 'Charlotte Amalie', 'Americas', 'Caribbean', USD, ENG, 'UTC-04:00', [18.35, -64.933333]),
  country('United States Minor Outlying Islands', 'United States Minor Outlying Islands', 300, 34.2, 'Washington DC', 'Americas', 'North America', USD, ENG, 'UTC-11:00', [19.3, 166.633333]),
  country('United States', 'United States of America', 340110988, 9525067, 'Washington D.C.', 'Americas', 'North America', USD, ENG, 'UTC-05:00', [38, -97]),
  country('Denmark', 'Kingdom of Denmark', 6011488, 43094, 'Copenhagen', 'Europe', 'Northern Europe', ['DKK', 'Danish krone', 'kr'], ['dan', 'Danish'], 'UTC+01:00', [56, 10]),
  country('Guinea', 'Republic of Guinea', 14363931, 245857, 'Conakry', 'Africa', 'Western Africa', ['GNF', 'Guinean franc', 'Fr'], ['fra', 'French'], 'UTC', [11, -10]),
  country('Equatorial Guinea', 'Republic of Equatorial Guinea', 1795834, 28051, 'Malabo', 'Africa', 'Middle Africa', ['XAF', 'Central African CFA franc', 'Fr'], ['spa', 'Spanish'], 'UTC+01:00', [2, 10]),
  country('Papua New Guinea', 'Independent State of Papua New Guinea', 11781559, 462840, 'Port Moresby', 'Oceania', 'Melanesia', ['PGK', 'Papua New Guinean kina', 'K'], ['eng', 'English'], 'UTC+10:00', [-6, 147]),
  country('South Korea', 'Republic of Korea', 51159889, 100210, 'Seoul', 'Asia', 'Eastern Asia', ['KRW', 'South Korean won', '₩'], ['kor', 'Korean'], 'UTC+09:00', [37, 127.5]),
  country('North Korea', "Democratic People's Republic of Korea", 25660000, 120538, 'Pyongyang', 'Asia', 'Eastern Asia', ['KPW', 'North Korean won', '₩'], ['kor', 'Korean'], 'UTC+09:00', [40, 127]),
  country('France', 'French Republic', 66351959, 543908, 'Paris', 'Europe', 'Western Europe', ['EUR', 'Euro', '€'], ['fra', 'French'], 'UTC+01:00', [46, 2]),
  country('Niger', 'Republic of Niger', 26312034, 1267000, 'Niamey', 'Africa', 'Western Africa', ['XOF', 'West African CFA franc', 'Fr'], ['fra', 'French'], 'UTC+01:00', [16, 8]),
  country('Nigeria', 'Federal Republic of Nigeria', 223800000, 923768, 'Abuja', 'Africa', 'Western Africa', ['NGN', 'Nigerian naira', '₦'], ['eng', 'English'], 'UTC+01:00', [10, 8]),
  country('Dominica', 'Commonwealth of Dominica', 67408, 751, 'Roseau', 'Americas', 'Caribbean', ['XCD', 'Eastern Caribbean dollar', '$'], ENG, 'UTC-04:00', [15.416667, -61.333333]),
  country('Dominican Republic', 'Dominican Republic', 10771504, 48671, 'Santo Domingo', 'Americas', 'Caribbean', ['DOP', 'Dominican peso', '$'], ['spa', 'Spanish'], 'UTC-04:00', [19, -70.666667]),
];

const names = (c: CountryRecord): string[] => [c.name.common, c.name.official, ...Object.values(c.name.nativeName ?? {}).flatMap((n) => [n.common, n.official])].map((n) => n.toLowerCase());

/** The table a name is searched in: a leg's golden value for a name the table does not answer first leads it. */
function matches(facts: UpstreamFacts, wanted: string, fullText: boolean): CountryRecord[] {
  const w = wanted.toLowerCase();
  const base = COUNTRIES.filter((c) => (fullText ? names(c).slice(0, 2).includes(w) : names(c).some((n) => n.includes(w))));
  const population = facts.values.get(factKeys.population(wanted));
  const area = facts.values.get(factKeys.area(wanted));
  if (typeof population !== 'number' && typeof area !== 'number') return base;
  const first = base[0];
  if (first && (typeof population !== 'number' || first.population === population) && (typeof area !== 'number' || first.area === area)) return base;
  const title = wanted.trim().replace(/\s+/g, ' ');
  const fromLegs = country(title, title, typeof population === 'number' ? population : between(`pop ${normText(wanted)}`, 10_000, 90_000_000), typeof area === 'number' ? area : between(`area ${normText(wanted)}`, 300, 900_000), `${title} City`, 'World', 'World', ['XXX', 'Unit', '¤'], ENG, 'UTC', [0, 0]);
  return [fromLegs, ...base.filter((c) => c.name.common.toLowerCase() !== w)];
}

export function restCountries(facts: UpstreamFacts) {
  return (req: StandInRequest): StandInReply => {
    const m = /^\/v3\.1\/name\/(.+)$/.exec(req.path);
    if (!m) return json({ status: 404, message: 'Page Not Found' }, 404);
    const hits = matches(facts, m[1].trim(), req.query.fullText === 'true');
    if (!hits.length) return json({ status: 404, message: 'Not Found' }, 404);
    const fields = req.query.fields ? req.query.fields.split(',').map((f) => f.trim()) : undefined;
    return json(hits.map((c) => (fields ? Object.fromEntries(Object.entries(c).filter(([k]) => fields.includes(k))) : c)));
  };
}

