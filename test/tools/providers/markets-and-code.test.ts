import { CODE_SYSTEM_PROMPT, stripCodeFences } from '../../../tools/catalog/code.js';
import type { ProviderContext } from '../../../tools/providers/types.js';
import { callParsed, callTool, FAKE_KEYS, fakeProviderContext, useFakeUpstreams } from './fakes/index.js';

const upstreams = useFakeUpstreams();

const run = (tool: string, args: Record<string, unknown>, context?: ProviderContext) =>
  callParsed(tool, args, context ?? upstreams.ctx);
const utc = (date: string) => Date.parse(`${date}T00:00:00Z`);

describe('yahoo-finance (stocks)', () => {
  test('stock_historical_price: chart API over a window ending after the date; the adjusted close', async () => {
    const r = await run('stock_historical_price', { ticker: 'GSK', date: '2000-12-27' });
    const [req] = upstreams.fakes.servers.yahooFinance.requests();
    expect(req.path).toBe('/v8/finance/chart/GSK');
    expect(req.query).toMatchObject({ interval: '1d' });
    expect(Number(req.query.period2)).toBe(utc('2000-12-29') / 1000);
    expect(Number(req.query.period1)).toBe(utc('2000-12-21') / 1000);
    expect(req.headers['user-agent']).toMatch(/^Mozilla/);
    expect(r.text).toBe(JSON.stringify({ ticker: 'GSK', date: '2000-12-27', close_price: 17.55, currency: 'USD' }, null, 2));
  });

  test('a weekend or holiday gives the previous trading day (null rows skipped)', async () => {
    expect((await run('stock_historical_price', { ticker: 'AAPL', date: '2024-01-15' })).data).toEqual({
      ticker: 'AAPL',
      date: '2024-01-12',
      close_price: 184.82,
      currency: 'USD',
    });
    expect((await run('stock_volume', { ticker: 'GSK', date: '2000-12-26' })).data).toEqual({ ticker: 'GSK', date: '2000-12-22', volume: 298700 });
  });

  test('stock_volume', async () => {
    expect((await run('stock_volume', { ticker: 'GSK', date: '2000-12-27' })).data).toEqual({ ticker: 'GSK', date: '2000-12-27', volume: 358400 });
  });

  test('an unknown ticker, and a date with no trading day in the 5 days before it (the golden tools\' window)', async () => {
    const unknown = await run('stock_volume', { ticker: 'NOPE', date: '2024-01-12' });
    expect(unknown).toMatchObject({ ok: false, text: 'Error: Yahoo Finance request for NOPE failed with HTTP 404: No data found, symbol may be delisted' });
    const early = await run('stock_historical_price', { ticker: 'AAPL', date: '2023-06-01' });
    expect(early).toMatchObject({ ok: false, text: 'Error: no trading day of AAPL on or before 2023-06-01 (within 5 days)' });
  });
});

describe('binance (crypto)', () => {
  test('crypto_historical_price: binance.us first; the day kline asked as the golden tools asked it (endTime the next day)', async () => {
    const r = await run('crypto_historical_price', { symbol: 'BTCUSDT', date: '2024-06-15' });
    const [req] = upstreams.fakes.servers.binanceUs.requests();
    expect(req.path).toBe('/api/v3/klines');
    expect(req.query).toEqual({ symbol: 'BTCUSDT', interval: '1d', startTime: String(utc('2024-06-15')), endTime: String(utc('2024-06-16')), limit: '1' });
    expect(upstreams.fakes.servers.binance.requests()).toHaveLength(0);
    expect(r.text).toBe(JSON.stringify({ symbol: 'BTCUSDT', date: '2024-06-15', close_price: 66249.99 }, null, 2));
  });

  test('crypto_volume: base and quote volume', async () => {
    expect((await run('crypto_volume', { symbol: 'BTCUSDT', date: '2024-06-15' })).data).toEqual({
      symbol: 'BTCUSDT',
      date: '2024-06-15',
      volume: 9271.3811,
      quote_volume: 613812306.1095892,
    });
  });

  test('binance.com answers when binance.us fails (HTTP 451 from a US host, or a pair .us does not list)', async () => {
    upstreams.fakes.servers.binanceUs.enqueue({ status: 451, body: { code: 0, msg: 'Service unavailable from a restricted location' } });
    expect((await run('crypto_volume', { symbol: 'BTCUSDT', date: '2024-06-15' })).data).toMatchObject({ volume: 9271.3811 });
    expect(upstreams.fakes.servers.binance.requests()).toHaveLength(1);
    // A day the pair did not trade: the first candle after it, with the date asked (as the golden tools answered).
    expect((await run('crypto_historical_price', { symbol: 'ETHFOO', date: '2024-06-15' })).data).toEqual({ symbol: 'ETHFOO', date: '2024-06-15', close_price: 0.055 });
    expect(upstreams.fakes.servers.binanceUs.requests().map((q) => q.query.symbol)).toEqual(['BTCUSDT', 'ETHFOO']);
  });

  test("when both fail, binance.com's message; no candle at all is an Error", async () => {
    expect((await run('crypto_volume', { symbol: 'XXX', date: '2024-06-15' })).text).toMatch(/^Error: Binance klines request for XXX \(127\.0\.0\.1:\d+\) failed with HTTP 400: Invalid symbol\.$/);
    expect((await run('crypto_historical_price', { symbol: 'ETHFOO', date: '2024-06-20' })).text).toBe('Error: Binance has no daily candle for ETHFOO on 2024-06-20');
  });
});

describe('code-model (python_generate_code)', () => {
  test('asks the chat completions API for a program; an answer with prose before its fence is kept whole (as the golden tools kept it)', async () => {
    const r = await callTool('python_generate_code', { description: 'days between two dates', extra_instructions: 'use datetime', model: 'agent-choice' }, upstreams.ctx);
    const [req] = upstreams.fakes.servers.codeModel.requests();
    expect(req).toMatchObject({ method: 'POST', path: '/v1/chat/completions' });
    expect(req.headers.authorization).toBe(`Bearer ${FAKE_KEYS.codeModel}`);
    expect(req.json).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: CODE_SYSTEM_PROMPT },
        { role: 'user', content: 'days between two dates\n\nAdditional instructions:\nuse datetime' },
      ],
    });
    expect(r).toEqual({ ok: true, text: 'Here is the program:\n\n```python\nfrom datetime import date\nprint((date(2007, 1, 1) - date(1945, 10, 26)).days)\n```' });
  });

  test('the model comes from the context', async () => {
    await callTool('python_generate_code', { description: 'x' }, fakeProviderContext(upstreams.fakes, { codeModel: 'my-coder' }));
    expect((upstreams.fakes.servers.codeModel.requests()[0].json as { model: string }).model).toBe('my-coder');
  });

  test('no key, or a rejected one', async () => {
    const none = await callTool('python_generate_code', { description: 'x' }, fakeProviderContext(upstreams.fakes, { keys: {} }));
    expect(none.text).toBe('Error: python_generate_code needs OPENAI_API_KEY on the host (or a code model configured)');
    const wrong = await callTool('python_generate_code', { description: 'x' }, fakeProviderContext(upstreams.fakes, { keys: { codeModel: 'sk-wrong' } }));
    expect(wrong).toMatchObject({ ok: false, text: 'Error: code model request failed with HTTP 401: Incorrect API key provided: sk-wrong.' });
  });

  test('stripCodeFences: as the golden tools did, only an answer that starts with a fence loses its fences', () => {
    expect(stripCodeFences('```python\nprint(1)\n```')).toBe('print(1)');
    expect(stripCodeFences('```\nprint(2)\n```\nThat prints 2.')).toBe('print(2)\n```\nThat prints 2.');
    expect(stripCodeFences('  print(3)\n')).toBe('print(3)');
    expect(stripCodeFences('Here:\n```\nprint(4)\n```')).toBe('Here:\n```\nprint(4)\n```');
    expect(stripCodeFences('```py\nprint(4)')).toBe('print(4)');
  });
});
