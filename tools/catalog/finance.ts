import { z } from 'zod';
import { isoDate, text } from './args.js';
import { errorResult, jsonText, okResult, pyRound } from '../providers/formats.js';
import type { ProviderContext, ToolResult } from '../providers/types.js';
import { requestJson } from '../providers/upstream.js';
import { defineTool } from './define.js';
import { BROWSER_USER_AGENT } from './web-page.js';

/**
 * stock_historical_price: `{"ticker","date" (the trading day used),"close_price" (adjusted for splits and
 * dividends, as yfinance reports it, rounded as Python's round(x, 2)),"currency" ("USD", as the tools of the
 * golden values always said)}`.
 */
export const formatStockPrice = (ticker: string, date: string, closePrice: number): string =>
  jsonText({ ticker, date, close_price: pyRound(closePrice, 2), currency: 'USD' });
/** stock_volume: `{"ticker","date" (the trading day used),"volume" (integer, shares)}`. */
export const formatStockVolume = (ticker: string, date: string, volume: number): string => jsonText({ ticker, date, volume: Math.round(volume) });

/** crypto_historical_price: `{"symbol","date","close_price"}` (quote asset, as the exchange reports it). */
export const formatCryptoPrice = (symbol: string, date: string, closePrice: number): string => jsonText({ symbol, date, close_price: closePrice });
/** crypto_volume: `{"symbol","date","volume" (base asset),"quote_volume" (quote asset)}`. */
export const formatCryptoVolume = (symbol: string, date: string, volume: number, quoteVolume: number): string =>
  jsonText({ symbol, date, volume, quote_volume: quoteVolume });

const YAHOO = 'yahoo-finance';
const DAY_S = 86_400;
/** Days looked back for the last trading day on or before the date: yfinance's window in the golden values' tools. */
const LOOKBACK_DAYS = 5;

interface ChartAnswer {
  chart?: {
    result?: {
      meta?: { currency?: string; symbol?: string; gmtoffset?: number };
      timestamp?: number[];
      indicators?: { quote?: { close?: (number | null)[]; volume?: (number | null)[] }[]; adjclose?: { adjclose?: (number | null)[] }[] };
    }[] | null;
    error?: { code?: string; description?: string } | null;
  };
}

export interface TradingDay {
  date: string;
  /** Adjusted for splits and dividends when Yahoo gives `adjclose` (as yfinance's default history does), else the close. */
  close: number;
  volume: number | null;
}

const utcSeconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;
const dayBefore = (date: string, days: number) => new Date((utcSeconds(date) - days * DAY_S) * 1000).toISOString().slice(0, 10);

/**
 * The last trading day on or before `date` and at most LOOKBACK_DAYS before it, in a chart answer (days in the
 * exchange's time zone): the row yfinance's history(start=date-5d, end=date+1d) ends with.
 */
export function lastTradingDay(answer: ChartAnswer, date: string): TradingDay | undefined {
  const result = answer.chart?.result?.[0];
  if (!result?.timestamp) return undefined;
  const offset = result.meta?.gmtoffset ?? 0;
  const quote = result.indicators?.quote?.[0] ?? {};
  const adjusted = result.indicators?.adjclose?.[0]?.adjclose;
  const first = dayBefore(date, LOOKBACK_DAYS);
  let best: TradingDay | undefined;
  result.timestamp.forEach((ts, i) => {
    const day = new Date((ts + offset) * 1000).toISOString().slice(0, 10);
    const close = adjusted?.[i] ?? quote.close?.[i];
    if (day > date || day < first || typeof close !== 'number') return;
    if (!best || day >= best.date) best = { date: day, close, volume: quote.volume?.[i] ?? null };
  });
  return best;
}

async function tradingDay(ctx: ProviderContext, ticker: string, date: string): Promise<{ ok: true; day: TradingDay } | { ok: false; result: ToolResult }> {
  const start = utcSeconds(date);
  // A day more on each side than the window, whatever the exchange's time zone; lastTradingDay keeps the window.
  const query = { period1: start - (LOOKBACK_DAYS + 1) * DAY_S, period2: start + 2 * DAY_S, interval: '1d', includeAdjustedClose: 'true' };
  const url = `${ctx.endpoints.yahooFinance}/v8/finance/chart/${encodeURIComponent(ticker)}`;
  const r = await requestJson<ChartAnswer>(ctx, YAHOO, { url, query, headers: { 'User-Agent': BROWSER_USER_AGENT } }, `Yahoo Finance request for ${ticker}`);
  if (!r.ok) return r;
  const error = r.data.chart?.error;
  if (error) return { ok: false, result: errorResult(`Yahoo Finance has no data for ${ticker}: ${error.description ?? error.code}`, JSON.stringify(error)) };
  const day = lastTradingDay(r.data, date);
  if (!day) return { ok: false, result: errorResult(`no trading day of ${ticker} on or before ${date} (within ${LOOKBACK_DAYS} days)`) };
  return { ok: true, day };
}

/** A stock's trading day on or before the date (Yahoo Finance's v8 chart API, daily candles), answered by `answer`. */
const onTradingDay = (answer: (ticker: string, day: TradingDay) => ToolResult) => async (args: Record<string, unknown>, ctx: ProviderContext): Promise<ToolResult> => {
  const ticker = String(args.ticker ?? args.symbol).toUpperCase();
  const found = await tradingDay(ctx, ticker, String(args.date));
  return found.ok ? answer(ticker, found.day) : found.result;
};

const BINANCE = 'binance';
const DAY_MS = 86_400_000;

/** [openTime, open, high, low, close, volume, closeTime, quoteVolume, trades, takerBase, takerQuote, ignore] */
type Kline = [number, string, string, string, string, string, number, string, ...unknown[]];

/**
 * A trading pair's daily candle from Binance's klines, asked as the tools of the golden values asked: binance.us
 * first, binance.com when .us fails (any failure), `startTime` the UTC day's start, `endTime` the next day's start,
 * `limit` 1, and the first candle answered taken (when the pair did not trade that day, the next day's candle).
 */
const onCandle = (answer: (symbol: string, date: string, kline: Kline) => ToolResult) => async (args: Record<string, unknown>, ctx: ProviderContext): Promise<ToolResult> => {
  const symbol = String(args.symbol ?? args.ticker).toUpperCase();
  const date = String(args.date);
  const startTime = Date.parse(`${date}T00:00:00Z`);
  const query = { symbol, interval: '1d', startTime, endTime: startTime + DAY_MS, limit: 1 };
  let failure: ToolResult | undefined;
  for (const base of [ctx.endpoints.binanceUs, ctx.endpoints.binance]) {
    const r = await requestJson<Kline[]>(ctx, BINANCE, { url: `${base}/klines`, query }, `Binance klines request for ${symbol} (${new URL(base).host})`);
    if (!r.ok) {
      failure = r.result;
      continue;
    }
    const kline = Array.isArray(r.data) ? r.data[0] : undefined;
    if (!Array.isArray(kline)) return errorResult(`Binance has no daily candle for ${symbol} on ${date}`);
    return answer(symbol, date, kline);
  }
  return failure!;
};

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
const stockTool = (name: string, summary: string, returns: string, format: (ticker: string, date: string, figure: number) => string, answer: (ticker: string, day: TradingDay) => ToolResult) =>
  defineTool({
    name,
    group: 'finance',
    summary,
    returns,
    args: () => marketDay('ticker', 'stock ticker, e.g. "AAPL"'),
    example: { ticker: 'AAPL', date: '2024-01-15' },
    runsIn: 'gateway',
    provider: YAHOO,
    synthetic: (a, value) => format(String(a.ticker), String(a.date), numeric(value)),
    run: onTradingDay(answer),
  });

/** A Binance tool: a trading pair's figure on a UTC day. */
const cryptoTool = (name: string, summary: string, returns: string, format: (symbol: string, date: string, figure: number) => string, answer: (symbol: string, date: string, kline: Kline) => ToolResult) =>
  defineTool({
    name,
    group: 'finance',
    summary,
    returns,
    args: () => marketDay('symbol', 'trading pair, e.g. "BTCUSDT"'),
    example: { symbol: 'BTCUSDT', date: '2024-06-15' },
    runsIn: 'gateway',
    provider: BINANCE,
    synthetic: (a, value) => format(String(a.symbol), String(a.date), numeric(value)),
    run: onCandle(answer),
  });

export const stockHistoricalPrice = stockTool(
  'stock_historical_price',
  'Closing price of a stock on a date; a weekend or holiday gives the previous trading day (Yahoo Finance).',
  'JSON with ticker, date (the trading day used), close_price and currency',
  formatStockPrice,
  (ticker, day) => okResult(formatStockPrice(ticker, day.date, day.close)),
);

export const stockVolume = stockTool(
  'stock_volume',
  'Trading volume of a stock on a date; a weekend or holiday gives the previous trading day (Yahoo Finance).',
  'JSON with ticker, date (the trading day used) and volume',
  formatStockVolume,
  (ticker, day) => (day.volume === null ? errorResult(`Yahoo Finance gives no volume for ${ticker} on ${day.date}`) : okResult(formatStockVolume(ticker, day.date, day.volume))),
);

export const cryptoHistoricalPrice = cryptoTool(
  'crypto_historical_price',
  'Daily closing price of a crypto trading pair on a date (Binance klines, UTC days; binance.us, then binance.com).',
  'JSON with symbol, date and close_price (in the quote asset)',
  formatCryptoPrice,
  (symbol, date, kline) => okResult(formatCryptoPrice(symbol, date, Number(kline[4]))),
);

export const cryptoVolume = cryptoTool(
  'crypto_volume',
  'Daily trading volume of a crypto trading pair on a date (Binance klines, UTC days; binance.us, then binance.com).',
  'JSON with symbol, date, volume (base asset) and quote_volume (quote asset)',
  (symbol, date, volume) => formatCryptoVolume(symbol, date, volume, volume),
  (symbol, date, kline) => okResult(formatCryptoVolume(symbol, date, Number(kline[5]), Number(kline[7]))),
);
