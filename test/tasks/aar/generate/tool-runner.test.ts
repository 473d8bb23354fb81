import path from 'node:path';
import { tempDir } from '../../../helpers/data.js';
import { startFakeUpstreams, withFakeToolKeys, type FakeUpstreams } from '../../../tools/providers/fakes/index.js';
import { GenerationTools } from '../../../../tasks/aar/generate/tool-runner.js';
import { readPage } from '../../../../tasks/aar/generate/steps/page-reader.js';
import { callIdentity } from '../../../../tools/store/canonical.js';
import { ResponseStore } from '../../../../tools/store/store.js';
import { readProvenance } from '../../../../tools/store/provenance.js';
import type { GenerateConfig } from '../../../../tasks/aar/generate/config.js';

const EVEREST = 'https://en.wikipedia.org/wiki/Mount_Everest';
let fakes: FakeUpstreams;
let dir: string;
let cleanup: () => void;
beforeAll(async () => {
  fakes = await startFakeUpstreams();
  ({ dir, cleanup } = tempDir('aar-gen-tools-'));
});
afterAll(async () => {
  await fakes.stop();
  cleanup();
});

const entry = (store: string, tool: string, args: Record<string, unknown>) => new ResponseStore(store).get(callIdentity(tool, args));

describe('the generation tools: the one place the pipeline meets the tool service and its modes', () => {
  test('live: the providers answer and every answer seen lands in the output store', async () => {
    const out = path.join(dir, 'live-out');
    const tools = new GenerationTools('live', new ResponseStore(out), { endpoints: fakes.endpoints });
    const page = await withFakeToolKeys(() => tools.call({ tool: 'fetch_webpage', args: { url: EVEREST } }));
    expect(page.ok).toBe(true);
    expect(readPage(EVEREST, page.text, 0).infobox[0]).toMatchObject({ key: 'Elevation', value: '8,848.86 m' });
    expect(entry(out, 'fetch_webpage', { url: EVEREST })).toMatchObject({ ok: true, source: 'live', recorded_at: expect.any(String) });
    expect(tools.stats).toMatchObject({ calls: 1, failed: 0, stored: 1, byTool: { fetch_webpage: 1 } });
  });

  test('record into tools.store and copy to the output store; replay from it; python runs in the interpreter; a miss is no answer', async () => {
    const recorded = path.join(dir, 'recorded');
    const out = path.join(dir, 'record-out');
    // The host's keys are read when the tools are made, as a job reads them when it starts.
    const record = await withFakeToolKeys(async () => new GenerationTools('record', new ResponseStore(out), { store: new ResponseStore(recorded), endpoints: fakes.endpoints }));
    const geocode = await record.call({ tool: 'maps_geocode', args: { address: 'Mount Everest' } });
    expect(JSON.parse(geocode.text).results[0].location).toEqual({ lat: 27.9881206, lng: 86.9249751 });
    expect(entry(recorded, 'maps_geocode', { address: 'Mount Everest' })!.text).toBe(entry(out, 'maps_geocode', { address: 'Mount Everest' })!.text);

    const requests = fakes.requests.length;
    const replayOut = path.join(dir, 'replay-out');
    const replay = new GenerationTools('replay', new ResponseStore(replayOut), { store: new ResponseStore(recorded) });
    expect((await replay.call({ tool: 'maps_geocode', args: { address: 'Mount Everest' } })).text).toBe(geocode.text);
    expect(await replay.call({ tool: 'python_execute_code', args: { code: 'print(abs(2007 - 3) % 10)' } })).toEqual({ ok: true, text: '4\n' });
    const miss = await replay.call({ tool: 'maps_geocode', args: { address: 'Atlantis' } });
    expect(miss.ok).toBe(false);
    expect(miss.text).toMatch(/no recorded response/);
    expect(fakes.requests.length).toBe(requests); // replay asks no provider
    expect(replay.stats).toMatchObject({ calls: 3, failed: 1, stored: 1 });
    expect(entry(replayOut, 'maps_geocode', { address: 'Atlantis' })).toBeUndefined();
    expect(() => new GenerationTools('replay', new ResponseStore(out))).toThrow('tools.mode replay needs tools.store or tools.world');
  });

  test('pinned: a miss is called and recorded into tools.store, a hit asks no provider; both stores record their provenance', async () => {
    const pinned = path.join(dir, 'pinned');
    const config = { mode: 'pinned', store: pinned, endpoints: fakes.endpoints, output_limit: 8000 } as unknown as GenerateConfig['tools'];
    const call = { tool: 'maps_geocode', args: { address: 'Mount Everest' } };
    const first = await withFakeToolKeys(async () => GenerationTools.fromConfig(config, (p) => p, path.join(dir, 'pinned-out-1'), '9.9.9'));
    const before = fakes.requests.length;
    const answer = await first.call(call);
    expect(answer.ok).toBe(true);
    expect(fakes.requests.length).toBeGreaterThan(before);
    const secondOut = path.join(dir, 'pinned-out-2');
    const second = await withFakeToolKeys(async () => GenerationTools.fromConfig(config, (p) => p, secondOut, '9.9.9'));
    const after = fakes.requests.length;
    expect((await second.call(call)).text).toBe(answer.text);
    expect(fakes.requests.length).toBe(after); // the pinned world answered
    expect(entry(secondOut, 'maps_geocode', call.args)!.text).toBe(answer.text);
    const world = readProvenance(pinned);
    expect(world.world).toMatchObject({ origin: 'live', harness_version: '9.9.9' });
    expect(world.sessions.map((s) => s.mode)).toEqual(['pinned']); // the second run recorded nothing into it
    expect(readProvenance(secondOut).sessions).toEqual([expect.objectContaining({ mode: 'pinned', harness_version: '9.9.9' })]);
  });
});
