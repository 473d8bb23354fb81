import { z } from 'zod';
import { isoDate, text } from './args.js';
import * as fmt from '../providers/formats.js';
import { defineTool } from './define.js';
import { numeric } from './synthetic.js';

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
      date: isoDate().describe('YYYY-MM-DD'),
    } as Record<string, z.ZodType>),
  );

/** A Yahoo Finance tool: a stock's figure on a trading day. */
const stockTool = (name: string, summary: string, returns: string, format: (ticker: string, date: string, figure: number) => string) =>
  defineTool({
    name,
    group: 'finance',
    summary,
    returns,
    args: () => marketDay('ticker', 'stock ticker, e.g. "AAPL"'),
    example: { ticker: 'AAPL', date: '2024-01-15' },
    runsIn: 'gateway',
    provider: 'yahoo-finance',
    synthetic: (a, value) => format(String(a.ticker), String(a.date), numeric(value)),
  });

/** A Binance tool: a trading pair's figure on a UTC day. */
const cryptoTool = (name: string, summary: string, returns: string, format: (symbol: string, date: string, figure: number) => string) =>
  defineTool({
    name,
    group: 'finance',
    summary,
    returns,
    args: () => marketDay('symbol', 'trading pair, e.g. "BTCUSDT"'),
    example: { symbol: 'BTCUSDT', date: '2024-06-15' },
    runsIn: 'gateway',
    provider: 'binance',
    synthetic: (a, value) => format(String(a.symbol), String(a.date), numeric(value)),
  });

export const stockHistoricalPrice = stockTool(
  'stock_historical_price',
  'Closing price of a stock on a date; a weekend or holiday gives the previous trading day (Yahoo Finance).',
  'JSON with ticker, date (the trading day used), close_price and currency',
  (ticker, date, price) => fmt.formatStockPrice(ticker, date, price, 'USD'),
);

export const stockVolume = stockTool(
  'stock_volume',
  'Trading volume of a stock on a date; a weekend or holiday gives the previous trading day (Yahoo Finance).',
  'JSON with ticker, date (the trading day used) and volume',
  fmt.formatStockVolume,
);

export const cryptoHistoricalPrice = cryptoTool(
  'crypto_historical_price',
  'Daily closing price of a crypto trading pair on a date (Binance klines, UTC days).',
  'JSON with symbol, date and close_price (in the quote asset)',
  fmt.formatCryptoPrice,
);

export const cryptoVolume = cryptoTool(
  'crypto_volume',
  'Daily trading volume of a crypto trading pair on a date (Binance klines, UTC days).',
  'JSON with symbol, date, volume (base asset) and quote_volume (quote asset)',
  (symbol, date, volume) => fmt.formatCryptoVolume(symbol, date, volume, volume),
);
