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
    expect(Number(req.query.period1)).toBeLessThan(utc('2000-12-20') / 1000);
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

  test('an unknown ticker, and a date with no trading day before it', async () => {
    const unknown = await run('stock_volume', { ticker: 'NOPE', date: '2024-01-12' });
    expect(unknown).toMatchObject({ ok: false, text: 'Error: Yahoo Finance request for NOPE failed with HTTP 404: No data found, symbol may be delisted' });
    const early = await run('stock_historical_price', { ticker: 'AAPL', date: '2023-06-01' });
    expect(early).toMatchObject({ ok: false, text: 'Error: no trading day of AAPL on or before 2023-06-01 (within 10 days)' });
  });
});

describe('binance (crypto)', () => {
  test('crypto_historical_price: the UTC day kline, close price', async () => {
    const r = await run('crypto_historical_price', { symbol: 'BTCUSDT', date: '2024-06-15' });
    const [req] = upstreams.fakes.servers.binance.requests();
    expect(req.path).toBe('/api/v3/klines');
    expect(req.query).toEqual({ symbol: 'BTCUSDT', interval: '1d', startTime: String(utc('2024-06-15')), endTime: String(utc('2024-06-16') - 1), limit: '1' });
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

  test('an invalid symbol shows Binance’s message; a day before listing is an Error', async () => {
    expect((await run('crypto_volume', { symbol: 'XXX', date: '2024-06-15' })).text).toBe('Error: Binance klines request for XXX failed with HTTP 400: Invalid symbol.');
    expect((await run('crypto_historical_price', { symbol: 'ETHFOO', date: '2024-06-15' })).text).toBe(
      'Error: Binance has no daily candle for ETHFOO on 2024-06-15 (the pair may not have traded then)',
    );
  });
});

describe('code-model (python_generate_code)', () => {
  test('asks the chat completions API for a program and strips the fences', async () => {
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
    expect(r).toEqual({ ok: true, text: 'from datetime import date\nprint((date(2007, 1, 1) - date(1945, 10, 26)).days)\n' });
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

  test('stripCodeFences', () => {
    expect(stripCodeFences('```python\nprint(1)\n```')).toBe('print(1)\n');
    expect(stripCodeFences('```\nprint(2)\n```\nThat prints 2.')).toBe('print(2)\n');
    expect(stripCodeFences('print(3)')).toBe('print(3)\n');
    expect(stripCodeFences('```py\nprint(4)')).toBe('print(4)\n');
  });
});
