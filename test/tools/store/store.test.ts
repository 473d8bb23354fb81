import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { callIdentity, canonicalUrl } from '../../../tools/store/canonical.js';
import { ResponseStore } from '../../../tools/store/store.js';
import { REPO_ROOT, tempDir } from '../../helpers/data.js';

describe('call identity', () => {
  test('spellings of the same call share one key', () => {
    const a = callIdentity('maps_geocode', { address: '  Eiffel   Tower ' });
    expect(callIdentity('maps_geocode', { address: 'Eiffel Tower' })).toEqual(a);
    expect(callIdentity('maps_geocode', { address: 'Eiffel Towers' }).key).not.toBe(a.key);
    expect(callIdentity('weather_historical', { latitude: 1, longitude: 2, start_date: 'x' }).key).toBe(
      callIdentity('weather_historical', { start_date: 'x', longitude: 2, latitude: 1 }).key,
    );
    expect(callIdentity('maps_geocode', { address: 'x' }).key).not.toBe(callIdentity('maps_search_places', { address: 'x' }).key);
  });
  test('a fetched page is known by the page it names', () => {
    const key = callIdentity('fetch_webpage', { url: 'https://en.wikipedia.org/wiki/Black_Sea' }).key;
    for (const url of ['http://en.m.wikipedia.org/wiki/black_Sea#Geography', 'https://en.wikipedia.org/wiki/Black%20Sea', 'https://en.wikipedia.org/w/index.php?title=Black_Sea']) {
      expect(callIdentity('fetch_webpage', { url }).key).toBe(key);
    }
    expect(canonicalUrl('https://example.org/a/b?x=1#y')).toBe('https://example.org/a/b?x=1');
  });
});

describe('the response store', () => {
  test('put then get; a miss is undefined; files are pretty JSON per call', () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = new ResponseStore(dir);
      const id = callIdentity('countries_area', { country: 'France' });
      expect(store.get(id)).toBeUndefined();
      const file = store.put(id, { ok: true, text: '{"country": "France", "area_km2": 551695}' }, 'live');
      expect(path.relative(dir, file)).toBe(path.join('countries_area', id.key.slice(0, 2), `${id.key}.json`));
      expect(store.get(id)).toMatchObject({ tool: 'countries_area', args: { country: 'France' }, ok: true, source: 'live' });
      expect(readFileSync(file, 'utf8')).toMatch(/^\{\n {2}"format": "aar-harness\/tool-response@1",\n/);
    } finally {
      cleanup();
    }
  });

  test('a corrupt entry is an error naming its file', () => {
    const { dir, cleanup } = tempDir();
    try {
      const store = new ResponseStore(dir);
      const id = callIdentity('countries_area', { country: 'France' });
      const file = store.put(id, { ok: true, text: 'x' }, 'live');
      writeFileSync(file, '{"format": "aar-harness/tool-response@1", "tool": 3}');
      expect(() => store.get(id)).toThrow(`${file}: tool:`);
    } finally {
      cleanup();
    }
  });

  test('concurrent writers in separate processes leave whole entries', async () => {
    const { dir, cleanup } = tempDir();
    try {
      const script = `
        import { ResponseStore } from ${JSON.stringify(path.join(REPO_ROOT, 'dist/tools/store/store.js'))};
        import { callIdentity } from ${JSON.stringify(path.join(REPO_ROOT, 'dist/tools/store/canonical.js'))};
        const store = new ResponseStore(process.argv[1]);
        for (let i = 0; i < 200; i++) store.put(callIdentity('maps_geocode', { address: 'place ' + (i % 50) }), { ok: true, text: 'x'.repeat(20000) + i % 50 }, 'live');
      `;
      await Promise.all(
        [1, 2, 3, 4].map(
          () =>
            new Promise<void>((resolve, reject) => {
              const child = spawn(process.execPath, ['--input-type=module', '-e', script, dir], { stdio: 'inherit' });
              child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`writer exited ${code}`))));
            }),
        ),
      );
      const store = new ResponseStore(dir);
      for (let i = 0; i < 50; i++) expect(store.get(callIdentity('maps_geocode', { address: `place ${i}` }))!.text).toBe('x'.repeat(20000) + i);
      const files = readdirSync(dir, { recursive: true }).map(String);
      expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
      expect(files.filter((f) => f.endsWith('.json'))).toHaveLength(50);
    } finally {
      cleanup();
    }
  });
});
