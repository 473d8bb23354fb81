import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { defineTool } from '../../../tools/catalog/define.js';
import { findTool } from '../../../tools/catalog/index.js';
import { jsonText, okResult } from '../../../tools/providers/formats.js';
import { createProviderContext, runOnHost } from '../../../tools/providers/registry.js';
import { requestJson } from '../../../tools/providers/upstream.js';

describe('a host tool runs by its own run(args, ctx) over its provider transport, else by its provider', () => {
  let server: http.Server;
  let base = '';
  const seen: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify([{ name: { common: 'France' }, capital: ['Paris'], population: 68_000_000, area: 551_695 }]));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3.1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('a definition with run is the whole tool: its arguments, its call over ctx, its format', async () => {
    const capital = defineTool({
      name: 'countries_capital',
      group: 'countries',
      summary: 'Capital of a country.',
      returns: 'JSON with country and capital',
      args: () => z.object({ country: z.string().describe('country name') }),
      example: { country: 'France' },
      runsIn: 'gateway',
      provider: 'rest-countries',
      run: async (args, ctx) => {
        const r = await requestJson<{ name: { common: string }; capital: string[] }[]>(ctx, 'rest-countries', { url: `${ctx.endpoints.restCountries}/name/${args.country}` }, 'REST Countries request');
        return r.ok ? okResult(jsonText({ country: r.data[0].name.common, capital: r.data[0].capital[0] })) : r.result;
      },
    });
    const ctx = createProviderContext({ endpoints: { restCountries: base }, keys: {} });
    const result = await runOnHost(capital, { country: 'France' }, ctx);
    expect(result).toEqual({ ok: true, text: jsonText({ country: 'France', capital: 'Paris' }) });
    expect(seen.at(-1)).toBe('/v3.1/name/France');
  });

  test('each catalog tool carries its own run; a tool without one has no provider', async () => {
    const ctx = createProviderContext({ endpoints: { restCountries: base }, keys: {} });
    const result = await runOnHost(findTool('countries_population')!, { country: 'France' }, ctx);
    expect(result).toEqual({ ok: true, text: jsonText({ country: 'France', population: 68_000_000 }) });
    expect(await runOnHost(findTool('python_execute_code')!, { code: '1' }, ctx)).toEqual({ ok: false, text: 'Error: no provider serves python_execute_code' });
  });
});
