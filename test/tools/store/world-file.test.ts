import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { extract, pack } from 'tar-stream';
import { callIdentity } from '../../../tools/store/canonical.js';
import { describeStore, formatStoreInfo } from '../../../tools/store/info.js';
import { packStore, unpackStore } from '../../../tools/store/pack.js';
import { readProvenance, storeFingerprint } from '../../../tools/store/provenance.js';
import { ResponseStore } from '../../../tools/store/store.js';
import { tempDir } from '../../helpers/data.js';

const tmp = tempDir('aar-world-file-');
afterAll(() => tmp.cleanup());
let n = 0;
const fresh = (name: string) => path.join(tmp.dir, `${name}-${++n}`);

function recordedStore(): string {
  const dir = fresh('store');
  const store = new ResponseStore(dir, { recorder: { harnessVersion: '1.2.3', mode: 'record', endpoints: { restCountries: 'https://restcountries.com/v3.1' } } });
  store.put(callIdentity('countries_area', { country: 'France' }), { ok: true, text: '{"country": "France", "area_km2": 543908}' }, 'live');
  store.put(callIdentity('maps_geocode', { address: 'Atlantis' }), { ok: false, text: 'Error: nothing found' }, 'live');
  store.put(callIdentity('countries_area', { country: 'Denmark' }), { ok: true, text: 'own' }, 'synthetic', undefined, 'aar-dag/easy/sample_001');
  return dir;
}

/** Rewrites a pack, changing entries with `change` (name, content) -> [name, content] | null to drop. */
async function rewritePack(from: string, to: string, change: (name: string, content: Buffer) => [string, Buffer] | null, extra: [string, Buffer][] = []) {
  const out = pack();
  const written = pipeline(out, createGzip(), createWriteStream(to));
  const ex = extract();
  ex.on('entry', (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const changed = change(header.name, Buffer.concat(chunks));
      if (changed) out.entry({ name: changed[0] }, changed[1], next);
      else next();
    });
  });
  await pipeline(createReadStream(from), createGunzip(), ex);
  for (const [name, content] of extra) await new Promise((r) => out.entry({ name }, content, r));
  out.finalize();
  await written;
}

describe("a store's provenance", () => {
  test('the first entry a recording session writes makes world.json and its session file; the fingerprint is of the entries alone', () => {
    const dir = recordedStore();
    const { world, sessions } = readProvenance(dir);
    expect(world).toMatchObject({ format: 'aar-harness/world@1', harness_version: '1.2.3', origin: 'live' });
    expect(sessions).toEqual([expect.objectContaining({ mode: 'record', harness_version: '1.2.3', endpoints: { restCountries: 'https://restcountries.com/v3.1' } })]);
    const before = storeFingerprint(dir);
    expect(before.entries).toBe(3);
    // another session's provenance is not the world: the fingerprint stays
    new ResponseStore(dir, { recorder: { harnessVersion: '2.0.0', mode: 'pinned', endpoints: {} } }).putIfAbsent(callIdentity('countries_area', { country: 'France' }), { ok: true, text: 'later' }, 'live');
    expect(readProvenance(dir).sessions).toHaveLength(2);
    expect(storeFingerprint(dir)).toEqual(before);
    expect(new ResponseStore(dir).get(callIdentity('countries_area', { country: 'France' }))!.text).toContain('543908');
  });

  test('a store written without a recorder (as before provenance) has none, and reads as before', () => {
    const dir = fresh('plain');
    new ResponseStore(dir).put(callIdentity('maps_geocode', { address: 'x' }), { ok: true, text: 'y' }, 'live');
    expect(readProvenance(dir)).toEqual({ sessions: [] });
    expect(formatStoreInfo(describeStore(dir))).toContain('made: no world.json');
  });

  test('aar world info: entries by tool and source, failures, per-leg answers, the dates, the sessions', () => {
    const info = describeStore(recordedStore());
    expect(info).toMatchObject({ entries: 3, byTool: { countries_area: 2, maps_geocode: 1 }, bySource: { live: 2, synthetic: 1 }, failures: 1, perLeg: { entries: 1, legs: 1 } });
    expect(info.recorded!.first <= info.recorded!.last).toBe(true);
    const text = formatStoreInfo(info);
    expect(text).toMatch(/world: sha256 [0-9a-f]{64} \(3 entries\)/);
    expect(text).toContain('by aar-harness 1.2.3, answers recorded live');
    expect(text).toContain('record by aar-harness 1.2.3');
  });
});

describe('aar world pack / unpack', () => {
  test('a store round-trips to the same world, provenance included', async () => {
    const dir = recordedStore();
    const file = fresh('world') + '.tar.gz';
    const packed = await packStore(dir, file);
    expect(packed).toMatchObject({ entries: 3, fingerprint: storeFingerprint(dir).sha256 });
    const into = fresh('unpacked');
    const unpacked = await unpackStore(file, into);
    expect(unpacked.fingerprint).toBe(packed.fingerprint);
    expect(readProvenance(into)).toEqual(readProvenance(dir));
    const files = (d: string) => readdirSync(d, { recursive: true }).map(String).filter((f) => statSync(path.join(d, f)).isFile()).sort();
    expect(files(into)).toEqual(files(dir));
    for (const f of files(dir)) expect([f, readFileSync(path.join(into, f)).equals(readFileSync(path.join(dir, f)))]).toEqual([f, true]);
  });

  test('refused: a changed entry, a file the manifest does not list, a name outside the store, a folder that is not empty', async () => {
    const dir = recordedStore();
    const file = fresh('world') + '.tar.gz';
    await packStore(dir, file);
    const tampered = fresh('tampered') + '.tar.gz';
    await rewritePack(file, tampered, (name, content) => [name, name.startsWith('countries_area/') ? Buffer.from(content.toString().replace('543908', '543909')) : content]);
    await expect(unpackStore(tampered, fresh('x'))).rejects.toThrow(/countries_area\/.*: its content does not match the manifest/);
    const added = fresh('added') + '.tar.gz';
    await rewritePack(file, added, (name, content) => [name, content], [['maps_geocode/00/extra.json', Buffer.from('{}')]]);
    await expect(unpackStore(added, fresh('x'))).rejects.toThrow('maps_geocode/00/extra.json: in the pack but not in the manifest');
    const escaping = fresh('escaping') + '.tar.gz';
    await rewritePack(file, escaping, (name, content) => [name, content], [['../outside.json', Buffer.from('{}')]]);
    const target = fresh('x');
    await expect(unpackStore(escaping, target)).rejects.toThrow('"../outside.json": not a file name inside a store');
    expect(existsSync(path.join(path.dirname(target), 'outside.json'))).toBe(false);
    expect(existsSync(target)).toBe(false);
    const occupied = fresh('occupied');
    mkdirSync(occupied);
    writeFileSync(path.join(occupied, 'keep.txt'), 'mine');
    await expect(unpackStore(file, occupied)).rejects.toThrow('exists and is not empty');
    expect(readFileSync(path.join(occupied, 'keep.txt'), 'utf8')).toBe('mine');
  });
});
