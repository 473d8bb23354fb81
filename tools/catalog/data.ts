import { z } from 'zod';
import { flattenPoint, isoDate, latitude, longitude, text } from './args.js';

const select = z
  .preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(z.string()))
  .describe('dotted paths into the response, e.g. daily.temperature_2m_max[0]');

/** weather_historical */
export const weatherHistoricalArgs = z.preprocess(
    (v) => {
      const o = flattenPoint(v);
      if (!o || typeof o !== 'object') return o;
      const r = o as Record<string, unknown>;
      const start = r.start_date ?? r.date;
      return { ...r, start_date: start, end_date: r.end_date ?? start };
    },
    z.object({ latitude, longitude, start_date: isoDate, end_date: isoDate, select: select.optional() }),
  );

/** weather_forecast */
export const weatherForecastArgs = z.preprocess(flattenPoint, z.object({ latitude, longitude, select: select.optional() }));

const country = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && (v as Record<string, unknown>).country === undefined ? { ...v, country: (v as Record<string, unknown>).name } : v),
  z.object({ country: text('country') }),
);

/** countries_population */
export const countriesPopulationArgs = country;

/** countries_area */
export const countriesAreaArgs = country;

/** `ticker` and `symbol` are used interchangeably by agents; each tool names its canonical one. */
const marketDay = (key: 'ticker' | 'symbol', what: string) =>
  z.preprocess(
    (v) => {
      if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
      const o = v as Record<string, unknown>;
      return { ...o, [key]: o[key] ?? o.ticker ?? o.symbol };
    },
    z.object({ [key]: text(what).transform((s) => s.toUpperCase()), date: isoDate } as Record<string, z.ZodType>),
  );

/** stock_historical_price */
export const stockHistoricalPriceArgs = marketDay('ticker', 'ticker');

/** stock_volume */
export const stockVolumeArgs = marketDay('ticker', 'ticker');

/** crypto_historical_price */
export const cryptoHistoricalPriceArgs = marketDay('symbol', 'symbol');

/** crypto_volume */
export const cryptoVolumeArgs = marketDay('symbol', 'symbol');


