import { errorResult, formatCryptoPrice, formatCryptoVolume, okResult } from './formats.js';
import type { ToolProvider } from './types.js';
import { requestJson } from './upstream.js';

const BINANCE = 'binance';
const DAY_MS = 86_400_000;

/** [openTime, open, high, low, close, volume, closeTime, quoteVolume, trades, takerBase, takerQuote, ignore] */
type Kline = [number, string, string, string, string, string, number, string, ...unknown[]];

/** crypto_historical_price and crypto_volume from Binance's daily klines (UTC days). */
export const binanceProvider: ToolProvider = {
  name: BINANCE,
  async call(tool, args, ctx) {
    if (tool !== 'crypto_historical_price' && tool !== 'crypto_volume') return errorResult(`${BINANCE} does not serve ${tool}`);
    const symbol = String(args.symbol ?? args.ticker).toUpperCase();
    const date = String(args.date);
    const startTime = Date.parse(`${date}T00:00:00Z`);
    // endTime keeps Binance from answering with a later day when the pair did not trade on this one.
    const query = { symbol, interval: '1d', startTime, endTime: startTime + DAY_MS - 1, limit: 1 };
    const r = await requestJson<Kline[]>(ctx, BINANCE, { url: `${ctx.endpoints.binance}/klines`, query }, `Binance klines request for ${symbol}`);
    if (!r.ok) return r.result;
    const kline = Array.isArray(r.data) ? r.data.find((k) => Array.isArray(k) && k[0] === startTime) : undefined;
    if (!kline) return errorResult(`Binance has no daily candle for ${symbol} on ${date} (the pair may not have traded then)`);
    if (tool === 'crypto_historical_price') return okResult(formatCryptoPrice(symbol, date, Number(kline[4])));
    return okResult(formatCryptoVolume(symbol, date, Number(kline[5]), Number(kline[7])));
  },
};
