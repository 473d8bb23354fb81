import { errorResult, formatStockPrice, formatStockVolume, okResult } from './formats.js';
import type { ProviderContext, ToolProvider, ToolResult } from './types.js';
import { requestJson } from './upstream.js';
import { BROWSER_USER_AGENT } from './web.js';

const YAHOO = 'yahoo-finance';
const DAY_S = 86_400;
/** Days looked back for the last trading day on or before the date (covers long market closures). */
const LOOKBACK_DAYS = 10;

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
  currency: string;
}

const utcSeconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

/** The last trading day on or before `date` in a chart answer (dates in the exchange's time zone). */
export function lastTradingDay(answer: ChartAnswer, date: string): TradingDay | undefined {
  const result = answer.chart?.result?.[0];
  if (!result?.timestamp) return undefined;
  const offset = result.meta?.gmtoffset ?? 0;
  const quote = result.indicators?.quote?.[0] ?? {};
  const adjusted = result.indicators?.adjclose?.[0]?.adjclose;
  let best: TradingDay | undefined;
  result.timestamp.forEach((ts, i) => {
    const day = new Date((ts + offset) * 1000).toISOString().slice(0, 10);
    const close = adjusted?.[i] ?? quote.close?.[i];
    if (day > date || typeof close !== 'number') return;
    if (!best || day >= best.date) best = { date: day, close, volume: quote.volume?.[i] ?? null, currency: result.meta?.currency ?? 'USD' };
  });
  return best;
}

async function tradingDay(ctx: ProviderContext, ticker: string, date: string): Promise<{ ok: true; day: TradingDay } | { ok: false; result: ToolResult }> {
  const start = utcSeconds(date);
  const query = { period1: start - LOOKBACK_DAYS * DAY_S, period2: start + 2 * DAY_S, interval: '1d', includeAdjustedClose: 'true' };
  const url = `${ctx.endpoints.yahooFinance}/v8/finance/chart/${encodeURIComponent(ticker)}`;
  const r = await requestJson<ChartAnswer>(ctx, YAHOO, { url, query, headers: { 'User-Agent': BROWSER_USER_AGENT } }, `Yahoo Finance request for ${ticker}`);
  if (!r.ok) return r;
  const error = r.data.chart?.error;
  if (error) return { ok: false, result: errorResult(`Yahoo Finance has no data for ${ticker}: ${error.description ?? error.code}`, JSON.stringify(error)) };
  const day = lastTradingDay(r.data, date);
  if (!day) return { ok: false, result: errorResult(`no trading day of ${ticker} on or before ${date} (within ${LOOKBACK_DAYS} days)`) };
  return { ok: true, day };
}

/** stock_historical_price and stock_volume from Yahoo Finance's v8 chart API (daily candles). */
export const yahooFinanceProvider: ToolProvider = {
  name: YAHOO,
  async call(tool, args, ctx) {
    if (tool !== 'stock_historical_price' && tool !== 'stock_volume') return errorResult(`${YAHOO} does not serve ${tool}`);
    const ticker = String(args.ticker ?? args.symbol).toUpperCase();
    const found = await tradingDay(ctx, ticker, String(args.date));
    if (!found.ok) return found.result;
    const { day } = found;
    if (tool === 'stock_historical_price') return okResult(formatStockPrice(ticker, day.date, day.close, day.currency));
    if (day.volume === null) return errorResult(`Yahoo Finance gives no volume for ${ticker} on ${day.date}`);
    return okResult(formatStockVolume(ticker, day.date, day.volume));
  },
};
