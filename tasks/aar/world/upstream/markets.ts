import { factKeys, type UpstreamFacts } from './facts.js';
import { between, json, unit, type StandInReply, type StandInRequest } from './reply.js';

/**
 * Yahoo Finance's chart API and Binance's klines as stand-ins: their answers' whole shape, closes and volumes
 * from the world's facts where a golden chain reads one, made up otherwise.
 */

const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const dayMs = (date: string) => Date.parse(`${date}T00:00:00Z`);

interface Exchange {
  currency: string;
  exchangeName: string;
  fullExchangeName: string;
  timezone: string;
  exchangeTimezoneName: string;
  gmtoffset: number;
}
const NYSE: Exchange = { currency: 'USD', exchangeName: 'NYQ', fullExchangeName: 'NYSE', timezone: 'EST', exchangeTimezoneName: 'America/New_York', gmtoffset: -18000 };
const TOKYO: Exchange = { currency: 'JPY', exchangeName: 'JPX', fullExchangeName: 'Tokyo', timezone: 'JST', exchangeTimezoneName: 'Asia/Tokyo', gmtoffset: 32400 };
const PARIS: Exchange = { currency: 'EUR', exchangeName: 'PAR', fullExchangeName: 'Paris', timezone: 'CET', exchangeTimezoneName: 'Europe/Paris', gmtoffset: 3600 };
const exchangeOf = (ticker: string): Exchange => (ticker.endsWith('.T') ? TOKYO : ticker.endsWith('.PA') ? PARIS : NYSE);
const HOLIDAYS = new Set(['01-01', '07-04', '12-25']);
const isTradingDay = (date: string) => ![0, 6].includes(new Date(`${date}T00:00:00Z`).getUTCDay()) && !HOLIDAYS.has(date.slice(5));
/** The trading day a golden value asked on `date` was read from: the last one on or before it, within 5 days. */
function tradingDayOf(date: string): string | undefined {
  for (let i = 0; i <= 5; i++) {
    const d = isoDay(dayMs(date) - i * DAY_MS);
    if (isTradingDay(d)) return d;
  }
  return undefined;
}

/** Per ticker, the closes and volumes of the golden values, on the trading days they were read from. */
function stockDays(facts: UpstreamFacts): Map<string, Map<string, { close?: number; volume?: number }>> {
  const days = new Map<string, Map<string, { close?: number; volume?: number }>>();
  for (const [key, value] of facts.values) {
    const m = /^stock-(close|volume) (\S+) (\d{4}-\d\d-\d\d)$/.exec(key);
    const day = m && tradingDayOf(m[3]);
    if (!m || !day || typeof value !== 'number') continue;
    let ticker = days.get(m[2]);
    if (!ticker) days.set(m[2], (ticker = new Map()));
    ticker.set(day, { ...ticker.get(day), [m[1]]: value });
  }
  return days;
}

/** The chart's window in ms: period1 to period2 (default the store's day), else the five days before that day. */
function chartWindow(q: Record<string, string | undefined>): { from: number; to: number } {
  if (q.period1 !== undefined) return { from: Number(q.period1) * 1000, to: q.period2 !== undefined ? Number(q.period2) * 1000 : dayMs('2026-03-14') };
  const to = dayMs('2026-03-14');
  return { from: to - 5 * DAY_MS, to };
}

/**
 * A ticker's daily candles in the window: the stored closes and volumes where the store has them, stable
 * draws around its price (`anchor`) elsewhere. Candles open at 09:30 local time; a day is in the answer
 * when its candle's time is in [from, to).
 */
function dailyCandles(ticker: string, days: Map<string, { close?: number; volume?: number }>, gmtoffset: number, { from, to }: { from: number; to: number }) {
  const anchor = [...days.values()].find((d) => d.close !== undefined)?.close ?? between(`price ${ticker}`, 5, 400) + unit(`cents ${ticker}`);
  const timestamps: number[] = [];
  const adjclose: number[] = [];
  const close: number[] = [];
  const volume: number[] = [];
  for (let t = Math.floor(from / DAY_MS) * DAY_MS - DAY_MS; t < to + DAY_MS; t += DAY_MS) {
    const date = isoDay(t);
    const open = t + (9.5 * 3600 - gmtoffset) * 1000;
    if (!isTradingDay(date) || open < from || open >= to) continue;
    const fact = days.get(date) ?? {};
    const adjusted = fact.close ?? Math.round(anchor * (0.9 + unit(`day ${ticker} ${date}`) * 0.2) * 1e6) / 1e6;
    timestamps.push(open / 1000);
    adjclose.push(adjusted);
    // Yahoo's close is the traded price; adjclose takes later dividends and splits out of it.
    close.push(Math.round(adjusted * 1.0371 * 1e6) / 1e6);
    volume.push(fact.volume ?? between(`vol ${ticker} ${date}`, 100_000, 40_000_000));
  }
  return { anchor, timestamps, adjclose, close, volume };
}

export function yahooFinance(facts: UpstreamFacts) {
  let known: ReturnType<typeof stockDays> | undefined;
  return (req: StandInRequest): StandInReply => {
    if (req.path === '/v1/test/getcrumb') return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'StandInCrumb01' };
    if (req.path === '/' || req.path === '/fc') return { status: 404, headers: { 'set-cookie': 'A3=d=standin; Path=/; Domain=.yahoo.com' }, body: '' };
    const m = /^\/v8\/finance\/chart\/([^/]+)$/.exec(req.path);
    if (!m) return json({ finance: { result: null, error: { code: 'Not Found', description: 'HTTP 404 Not Found' } } }, 404);
    const ticker = decodeURIComponent(m[1]).toUpperCase();
    if (!/^[A-Z0-9.^=-]{1,12}$/.test(ticker) || /NOPE|DELISTED/.test(ticker)) {
      return json({ chart: { result: null, error: { code: 'Not Found', description: 'No data found, symbol may be delisted' } } }, 404);
    }
    known ??= stockDays(facts);
    const ex = exchangeOf(ticker);
    const q = req.query;
    const { anchor, timestamps, adjclose, close, volume } = dailyCandles(ticker, known.get(ticker) ?? new Map(), ex.gmtoffset, chartWindow(q));
    const meta = {
      currency: ex.currency,
      symbol: ticker,
      exchangeName: ex.exchangeName,
      fullExchangeName: ex.fullExchangeName,
      instrumentType: 'EQUITY',
      firstTradeDate: 345479400,
      regularMarketTime: 1773432000,
      hasPrePostMarketData: true,
      gmtoffset: ex.gmtoffset,
      timezone: ex.timezone,
      exchangeTimezoneName: ex.exchangeTimezoneName,
      regularMarketPrice: close.at(-1) ?? anchor,
      priceHint: 2,
      dataGranularity: q.interval ?? '1d',
      range: q.range ?? '',
      validRanges: ['1d', '5d', '1mo', '3mo', '6mo', '1y', '2y', '5y', '10y', 'ytd', 'max'],
    };
    const quote = { open: close.map((c) => Math.round(c * 0.995 * 1e4) / 1e4), high: close.map((c) => Math.round(c * 1.01 * 1e4) / 1e4), low: close.map((c) => Math.round(c * 0.985 * 1e4) / 1e4), close, volume };
    return json({ chart: { result: [{ meta, timestamp: timestamps, indicators: { quote: [quote], adjclose: [{ adjclose }] } }], error: null } });
  };
}

/** Pairs each exchange lists, and the day each began trading: binance.us does not list ETHBTC. */
const LISTED: Record<string, string> = { BTCUSDT: '2017-08-17', ETHUSDT: '2017-08-17', BNBUSDT: '2017-11-06', SOLUSDT: '2020-08-11', ETHBTC: '2017-07-14' };
const NOT_ON_US = new Set(['ETHBTC']);

export function binance(facts: UpstreamFacts, exchange: 'us' | 'com') {
  return (req: StandInRequest): StandInReply => {
    if (req.path !== '/api/v3/klines') return json({ code: -1000, msg: 'An unknown error occurred while processing the request.' }, 404);
    const q = req.query;
    const symbol = (q.symbol ?? '').toUpperCase();
    const factSymbols = [...facts.values.keys()].some((k) => k.startsWith('crypto-') && k.split(' ')[1] === symbol);
    const listed = factSymbols || (LISTED[symbol] !== undefined && !(exchange === 'us' && NOT_ON_US.has(symbol)));
    if (!listed) return json({ code: -1121, msg: 'Invalid symbol.' }, 400);
    if (q.interval !== '1d') return json({ code: -1120, msg: 'Invalid interval.' }, 400);
    const start = Number(q.startTime ?? 0);
    const end = q.endTime !== undefined ? Number(q.endTime) : start + 500 * DAY_MS;
    const limit = Math.min(Number(q.limit ?? 500), 1000);
    const first = dayMs(LISTED[symbol] ?? '2019-01-01');
    const klines: unknown[] = [];
    for (let open = Math.max(Math.ceil(start / DAY_MS) * DAY_MS, first); open <= end && klines.length < limit; open += DAY_MS) {
      const date = isoDay(open);
      const closeFact = facts.values.get(factKeys.cryptoClose(symbol, date));
      const volumeFact = facts.values.get(factKeys.cryptoVolume(symbol, date));
      const price = typeof closeFact === 'number' ? closeFact : Math.round((100 + unit(`${symbol} ${date}`) * 60_000) * 100) / 100;
      const vol = typeof volumeFact === 'number' ? volumeFact : Math.round(unit(`vol ${symbol} ${date}`) * 50_000 * 1e5) / 1e5;
      const f8 = (n: number) => n.toFixed(8);
      klines.push([open, f8(price * 0.99), f8(price * 1.02), f8(price * 0.97), f8(price), f8(vol), open + DAY_MS - 1, f8(vol * price), between(`trades ${symbol} ${date}`, 1000, 900_000), f8(vol / 2), f8((vol * price) / 2), '0']);
    }
    return json(klines);
  };
}

