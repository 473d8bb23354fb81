import { readdirSync } from 'node:fs';
import { ToolService } from '../../tools/service.js';
import { ResponseStore } from '../../tools/store/store.js';
import { tempDir } from '../helpers/data.js';
import { fakeProviderContext, startFakeUpstreams, type FakeUpstreams } from './providers/fakes/index.js';

let fakes: FakeUpstreams;
beforeAll(async () => {
  fakes = await startFakeUpstreams();
});
afterAll(() => fakes.stop());
beforeEach(() => fakes.reset());

const CALLS: Array<[string, Record<string, unknown>]> = [
  ['fetch_webpage', { url: 'https://en.wikipedia.org/wiki/Mount_Everest' }],
  ['maps_geocode', { address: 'Paris' }],
  ['countries_population', { country: 'Denmark' }],
  ['web_search', { query: 'tallest mountain' }],
];

describe('the tool service', () => {
  test('live: a page fetched by 40 trials at once reaches the upstream once', async () => {
    const service = new ToolService({ mode: 'live', providers: fakeProviderContext(fakes) });
    const results = await Promise.all(Array.from({ length: 40 }, () => service.call('fetch_webpage', { url: 'https://en.wikipedia.org/wiki/Mount_Everest' })));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    expect(results[0]).toMatchObject({ ok: true, tool: 'fetch_webpage', resolvedUrl: 'https://en.wikipedia.org/wiki/Mount_Everest' });
    expect(results.filter((r) => r.source === 'provider')).toHaveLength(1);
    expect(results.filter((r) => r.source === 'cache')).toHaveLength(39);
    expect(fakes.requests.filter((r) => r.server === 'wikipedia')).toHaveLength(1);
  });

  test('record then replay gives byte-identical results, with no upstream request', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const recorder = new ToolService({ mode: 'record', store: new ResponseStore(dir), providers: fakeProviderContext(fakes) });
      const recorded = [];
      for (const [tool, args] of CALLS) recorded.push(await recorder.call(tool, args));
      expect(recorded.every((r) => r.ok)).toBe(true);
      const upstream = fakes.requests.length;
      expect(readdirSync(dir).sort()).toEqual(['countries_population', 'fetch_webpage', 'maps_geocode', 'web_search']);

      const replayer = new ToolService({ mode: 'replay', store: new ResponseStore(dir) });
      for (let i = 0; i < CALLS.length; i++) {
        const replayed = await replayer.call(CALLS[i][0], CALLS[i][1]);
        expect(replayed.text).toBe(recorded[i].text);
        expect(replayed.resolvedUrl).toBe(recorded[i].resolvedUrl);
        expect(replayed.source).toBe('store');
      }
      // another spelling of the same page replays too
      expect((await replayer.call('fetch_webpage', { url: 'https://en.m.wikipedia.org/wiki/mount_Everest#Name' })).text).toBe(recorded[0].text);
      expect(fakes.requests.length).toBe(upstream);
    } finally {
      cleanup();
    }
  });

  test('a replay miss is a clear error naming the tool and arguments', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const replayer = new ToolService({ mode: 'replay', store: new ResponseStore(dir) });
      const r = await replayer.call('maps_geocode', { address: 'Nowhere Town' });
      expect(r).toMatchObject({ ok: false, providerError: 'replay miss' });
      expect(r.text).toBe('Error: no recorded response for maps_geocode {"address":"Nowhere Town"} (tool mode is replay)');
    } finally {
      cleanup();
    }
  });

  test('bad calls are results, never crashes', async () => {
    const service = new ToolService({ mode: 'live', providers: fakeProviderContext(fakes) });
    expect((await service.call('teleport', {})).text).toMatch(/^Error: unknown tool 'teleport'\. Available: fetch_webpage, /);
    expect((await service.call('maps_geocode', { address: '' })).text).toMatch(/^Error: invalid arguments for maps_geocode: address/);
    expect((await service.call('maps_geocode', 'Paris')).ok).toBe(false);
    expect((await service.call('python_execute_code', { code: 'print(1)' })).text).toMatch(/runs inside your container/);
    const viaAlias = await service.call('serper_search', { query: 'x' });
    expect(viaAlias).toMatchObject({ ok: true, tool: 'web_search' });
  });

  test('a transient upstream failure is not cached: the next call tries again', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const service = new ToolService({ mode: 'record', store: new ResponseStore(dir), providers: fakeProviderContext(fakes) });
      fakes.servers.restCountries.enqueue({ status: 503 }, { status: 503 }, { status: 503 });
      const failed = await service.call('countries_area', { country: 'Denmark' });
      expect(failed.ok).toBe(false);
      expect(failed.providerError).toMatch(/503/);
      expect(readdirSync(dir)).toEqual([]);
      const retried = await service.call('countries_area', { country: 'Denmark' });
      expect(retried).toMatchObject({ ok: true, source: 'provider' });
      expect(readdirSync(dir)).toEqual(['countries_area']);
    } finally {
      cleanup();
    }
  });

  test('long outputs are cut at the limit, and say so', async () => {
    const service = new ToolService({ mode: 'live', providers: fakeProviderContext(fakes), outputLimit: 400 });
    const r = await service.call('fetch_webpage', { url: 'https://en.wikipedia.org/wiki/Mount_Everest' });
    expect(r.truncated).toBe(true);
    expect(r.fullLength).toBeGreaterThan(400);
    expect(r.text).toMatch(new RegExp(`\\n\\n\\[output truncated: showing the first 400 of ${r.fullLength.toLocaleString('en-US')} characters\\]$`));
    const short = await service.call('maps_geocode', { address: 'Paris' });
    expect(short.truncated).toBe(false);
  });
});
