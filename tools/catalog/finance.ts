import { z } from 'zod';
import { isoDate, text } from './args.js';
import { defineTool } from './define.js';

/** `ticker` and `symbol` are used interchangeably by agents; each tool names its canonical one. */
const marketDay = (key: 'ticker' | 'symbol', doc: string) =>
  z.preprocess(
    (v) => {
      if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
      const o = v as Record<string, unknown>;
      return { ...o, [key]: o[key] ?? o.ticker ?? o.symbol };
    },
    z.object({
      [key]: text(key).overwrite((s) => s.toUpperCase()).describe(doc),
      date: isoDate.describe('YYYY-MM-DD'),
    } as Record<string, z.ZodType>),
  );

const stockDay = marketDay('ticker', 'stock ticker, e.g. "AAPL"');
const cryptoDay = marketDay('symbol', 'trading pair, e.g. "BTCUSDT"');

export const stockHistoricalPrice = defineTool({
  name: 'stock_historical_price',
  group: 'finance',
  summary: 'Closing price of a stock on a date; a weekend or holiday gives the previous trading day (Yahoo Finance).',
  returns: 'JSON with ticker, date (the trading day used), close_price and currency',
  args: stockDay,
  example: { ticker: 'AAPL', date: '2024-01-15' },
  runsIn: 'gateway',
  provider: 'yahoo-finance',
});

export const stockVolume = defineTool({
  name: 'stock_volume',
  group: 'finance',
  summary: 'Trading volume of a stock on a date; a weekend or holiday gives the previous trading day (Yahoo Finance).',
  returns: 'JSON with ticker, date (the trading day used) and volume',
  args: stockDay,
  example: { ticker: 'AAPL', date: '2024-01-15' },
  runsIn: 'gateway',
  provider: 'yahoo-finance',
});

export const cryptoHistoricalPrice = defineTool({
  name: 'crypto_historical_price',
  group: 'finance',
  summary: 'Daily closing price of a crypto trading pair on a date (Binance klines, UTC days).',
  returns: 'JSON with symbol, date and close_price (in the quote asset)',
  args: cryptoDay,
  example: { symbol: 'BTCUSDT', date: '2024-06-15' },
  runsIn: 'gateway',
  provider: 'binance',
});

export const cryptoVolume = defineTool({
  name: 'crypto_volume',
  group: 'finance',
  summary: 'Daily trading volume of a crypto trading pair on a date (Binance klines, UTC days).',
  returns: 'JSON with symbol, date, volume (base asset) and quote_volume (quote asset)',
  args: cryptoDay,
  example: { symbol: 'BTCUSDT', date: '2024-06-15' },
  runsIn: 'gateway',
  provider: 'binance',
});
