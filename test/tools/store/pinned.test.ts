import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ToolService } from '../../../tools/service.js';
import { callIdentity } from '../../../tools/store/canonical.js';
import { readProvenance } from '../../../tools/store/provenance.js';
import { ResponseStore } from '../../../tools/store/store.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';
import { startFakeServer, useFakeUpstreams, type FakeServer } from '../providers/fakes/index.js';

const upstreams = useFakeUpstreams();
const recorder = { harnessVersion: '9.9.9-test', mode: 'pinned' as const, endpoints: { restCountries: 'http://x' } };

describe('tools.mode pinned', () => {
  test('a miss is called live and recorded; the next service serves it from the store with no upstream request', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const first = new ToolService({ mode: 'pinned', store: new ResponseStore(dir, { recorder }), providers: upstreams.ctx });
      const live = await first.call('countries_population', { country: 'Denmark' });
      expect(live).toMatchObject({ ok: true, source: 'provider' });
      expect(upstreams.fakes.servers.restCountries.requests()).toHaveLength(1);
      const entry = new ResponseStore(dir).get(callIdentity('countries_population', { country: 'Denmark' }))!;
      expect(entry).toMatchObject({ source: 'live', text: live.text });
      expect(entry.recorded_at).toMatch(/^\d{4}-\d\d-\d\dT/);
      // The provenance: made by this harness version, one session of this mode with its endpoints.
      const { world, sessions } = readProvenance(dir);
      expect(world).toMatchObject({ harness_version: '9.9.9-test', origin: 'live' });
      expect(sessions).toEqual([expect.objectContaining({ mode: 'pinned', endpoints: { restCountries: 'http://x' }, harness_version: '9.9.9-test' })]);

      upstreams.fakes.reset();
      const second = new ToolService({ mode: 'pinned', store: new ResponseStore(dir, { recorder }), providers: upstreams.ctx });
      const served = await second.call('countries_population', { country: 'Denmark' });
      expect(served).toMatchObject({ ok: true, source: 'store', text: live.text });
      expect(upstreams.fakes.requests).toHaveLength(0);
      // A session that only served stored answers writes no provenance.
      expect(readProvenance(dir).sessions).toHaveLength(1);
    } finally {
      cleanup();
    }
  });

  test('a transient failure is not pinned: the next call tries the upstream again', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const service = new ToolService({ mode: 'pinned', store: new ResponseStore(dir), providers: upstreams.ctx });
      upstreams.fakes.servers.restCountries.enqueue({ status: 503 }, { status: 503 }, { status: 503 });
      expect(await service.call('countries_area', { country: 'Guinea' })).toMatchObject({ ok: false });
      expect(new ResponseStore(dir).get(callIdentity('countries_area', { country: 'Guinea' }))).toBeUndefined();
      const again = new ToolService({ mode: 'pinned', store: new ResponseStore(dir), providers: upstreams.ctx });
      expect(await again.call('countries_area', { country: 'Guinea' })).toMatchObject({ ok: true, source: 'provider' });
    } finally {
      cleanup();
    }
  });

  test("a leg's own answer comes first in pinned mode as in replay", async () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = new ResponseStore(dir);
      const id = callIdentity('countries_population', { country: 'Denmark' });
      store.put(id, { ok: true, text: 'shared' }, 'synthetic');
      store.put(id, { ok: true, text: 'own' }, 'synthetic', undefined, 'aar-dag/easy/sample_001');
      const service = new ToolService({ mode: 'pinned', store: new ResponseStore(dir), providers: upstreams.ctx });
      expect((await service.call('countries_population', { country: 'Denmark' }, undefined, 'aar-dag/easy/sample_001')).text).toBe('own');
      expect((await service.call('countries_population', { country: 'Denmark' }, undefined, 'aar-dag/easy/sample_002')).text).toBe('shared');
      expect(upstreams.fakes.requests).toHaveLength(0);
    } finally {
      cleanup();
    }
  });

  test('trials of one job asking a missing call at once make one upstream request', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const service = new ToolService({ mode: 'pinned', store: new ResponseStore(dir), providers: upstreams.ctx });
      const answers = await Promise.all(Array.from({ length: 12 }, () => service.call('countries_population', { country: 'Guinea' })));
      expect(new Set(answers.map((a) => a.text)).size).toBe(1);
      expect(upstreams.fakes.servers.restCountries.requests()).toHaveLength(1);
    } finally {
      cleanup();
    }
  });

  describe('processes recording the same calls at once', () => {
    let counting: FakeServer;
    let answered = 0;
    beforeAll(async () => {
      // An upstream whose every answer differs: a store that kept more than the first would be seen.
      counting = await startFakeServer('rest-countries-counting', () => ({ status: 200, body: [{ name: { common: 'Denmark' }, population: 1000 + ++answered, area: 1 }] }));
    });
    afterAll(() => counting.stop());

    test('one answer per call is kept, whole, and every process is served that one', async () => {
      const { dir, cleanup } = tempDir();
      try {
        const dist = (p: string) => JSON.stringify(path.join(REPO_ROOT, 'dist', p));
        const script = `
          import { ToolService } from ${dist('tools/service.js')};
          import { ResponseStore } from ${dist('tools/store/store.js')};
          import { createProviderContext } from ${dist('tools/providers/registry.js')};
          const [dir, url, startAt] = process.argv.slice(1);
          const store = new ResponseStore(dir, { recorder: { harnessVersion: 'test', mode: 'pinned', endpoints: {} } });
          const service = new ToolService({ mode: 'pinned', store, providers: createProviderContext({ endpoints: { restCountries: url }, keys: {} }) });
          await new Promise((r) => setTimeout(r, Math.max(0, Number(startAt) - Date.now())));
          const out = [];
          for (let i = 0; i < 20; i++) out.push((await Promise.all([0, 1].map(() => service.call('countries_population', { country: 'Country ' + i })))).map((a) => a.text));
          process.stdout.write(JSON.stringify(out));
        `;
        const startAt = String(Date.now() + 1500);
        const outputs = await Promise.all(
          [1, 2, 3, 4].map(
            () =>
              new Promise<string[][]>((resolve, reject) => {
                const child = spawn(process.execPath, ['--input-type=module', '-e', script, dir, counting.url, startAt], { stdio: ['ignore', 'pipe', 'inherit'] });
                let stdout = '';
                child.stdout.on('data', (d) => (stdout += d));
                child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(stdout)) : reject(new Error(`process exited ${code}`))));
              }),
          ),
        );
        const store = new ResponseStore(dir);
        for (let i = 0; i < 20; i++) {
          const kept = store.get(callIdentity('countries_population', { country: `Country ${i}` }))!.text;
          // every process, and both trials in each, were served the one answer the store kept
          for (const process of outputs) expect(process[i]).toEqual([kept, kept]);
        }
        const files = readdirSync(dir, { recursive: true }).map(String);
        expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
        expect(files.filter((f) => f.startsWith('countries_population') && f.endsWith('.json'))).toHaveLength(20);
        // four processes each wrote their session's provenance; the world was made once
        expect(readProvenance(dir).sessions).toHaveLength(4);
        expect(answered).toBeGreaterThanOrEqual(20);
      } finally {
        cleanup();
      }
    });
  });
});

