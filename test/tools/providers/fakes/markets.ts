import { json, type FakeReply, type LoggedRequest } from './server.js';

/** Yahoo Finance's v8 chart API and Binance's klines over a few days of made-up but realistic bars. */

interface Bar {
  date: string;
  close: number | null;
  adjclose: number | null;
  volume: number | null;
}

/** Daily bars (trading days only; 2000-12-26 has the null row Yahoo sometimes returns; 2024-01-15 is a holiday). */
export const STOCK_BARS: Record<string, { currency: string; bars: Bar[] }> = {
  GSK: {
    currency: 'USD',
    bars: [
      { date: '2000-12-21', close: 55.5, adjclose: 17.30000114440918, volume: 401200 },
      { date: '2000-12-22', close: 56.1875, adjclose: 17.510000228881836, volume: 298700 },
      { date: '2000-12-26', close: null, adjclose: null, volume: null },
      { date: '2000-12-27', close: 56.3125, adjclose: 17.549999237060547, volume: 358400 },
      { date: '2000-12-28', close: 56.75, adjclose: 17.68000030517578, volume: 300100 },
    ],
  },
  AAPL: {
    currency: 'USD',
    bars: [
      { date: '2024-01-11', close: 185.58999633789062, adjclose: 184.49000549316406, volume: 49128400 },
      { date: '2024-01-12', close: 185.9199981689453, adjclose: 184.8179931640625, volume: 40444700 },
      { date: '2024-01-16', close: 183.6300048828125, adjclose: 182.5417022705078, volume: 65603000 },
    ],
  },
};

const GMT_OFFSET = -18000;
const openTimestamp = (date: string) => Date.parse(`${date}T14:30:00Z`) / 1000;

export function yahooChartHandler(req: LoggedRequest): FakeReply {
  const m = /^\/v8\/finance\/chart\/([^/]+)$/.exec(req.path);
  if (!m) return json({ finance: { result: null, error: { code: 'Not Found', description: 'HTTP 404 Not Found' } } }, 404);
  const stock = STOCK_BARS[m[1]];
  if (!stock) return json({ chart: { result: null, error: { code: 'Not Found', description: 'No data found, symbol may be delisted' } } }, 404);
  const from = Number(req.query.period1);
  const to = Number(req.query.period2);
  const bars = stock.bars.filter((b) => openTimestamp(b.date) >= from && openTimestamp(b.date) < to);
  return json({
    chart: {
      result: [
        {
          meta: { currency: stock.currency, symbol: m[1], exchangeName: 'NYQ', instrumentType: 'EQUITY', gmtoffset: GMT_OFFSET, timezone: 'EST', exchangeTimezoneName: 'America/New_York', dataGranularity: '1d' },
          timestamp: bars.map((b) => openTimestamp(b.date)),
          indicators: {
            quote: [{ open: bars.map((b) => b.close), high: bars.map((b) => b.close), low: bars.map((b) => b.close), close: bars.map((b) => b.close), volume: bars.map((b) => b.volume) }],
            adjclose: [{ adjclose: bars.map((b) => b.adjclose) }],
          },
        },
      ],
      error: null,
    },
  });
}

const DAY_MS = 86_400_000;
/** [date, close, volume, quoteVolume] per UTC day; ETHFOO only starts trading on 2024-06-16. */
export const KLINE_DAYS: Record<string, [string, string, string, string][]> = {
  BTCUSDT: [
    ['2024-06-14', '66011.10000000', '18312.16130000', '1209848402.71806570'],
    ['2024-06-15', '66249.99000000', '9271.38110000', '613812306.10958920'],
    ['2024-06-16', '66636.51000000', '9600.00000000', '638000000.00000000'],
  ],
  ETHFOO: [['2024-06-16', '0.05500000', '10.00000000', '0.55000000']],
};

/** Binance's klines; `only` limits the pairs listed (binance.us lists fewer than binance.com). */
export function binanceHandler(only?: readonly string[]) {
  return (req: LoggedRequest): FakeReply => {
    if (req.path !== '/api/v3/klines') return json({ code: -1000, msg: 'Not found' }, 404);
    const symbol = req.query.symbol ?? '';
    const days = only && !only.includes(symbol) ? undefined : KLINE_DAYS[symbol];
    if (!days) return json({ code: -1121, msg: 'Invalid symbol.' }, 400);
    const start = Number(req.query.startTime ?? 0);
    const end = req.query.endTime ? Number(req.query.endTime) : Infinity;
    const limit = Number(req.query.limit ?? 500);
    const klines = days
      .map(([date, close, volume, quote]) => {
        const open = Date.parse(`${date}T00:00:00Z`);
        return [open, '65000.00000000', '67000.00000000', '64000.00000000', close, volume, open + DAY_MS - 1, quote, 1000, '1.0', '2.0', '0'] as const;
      })
      .filter((k) => k[0] >= start && k[0] <= end)
      .slice(0, limit);
    return json(klines);
  };
}
