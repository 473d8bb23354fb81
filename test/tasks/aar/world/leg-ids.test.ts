import { mkdirSync, readdirSync, readFileSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadedLeg } from '../../../../tasks/aar/load.js';
import { loadLegs } from '../../../../tasks/aar/load.js';
import { synthesizeWorld } from '../../../../tasks/aar/world/synthesize.js';
import { callIdentity } from '../../../../tools/store/canonical.js';
import { PER_LEG_DIR, ResponseStore } from '../../../../tools/store/store.js';
import { runAar } from '../../../helpers/cli.js';
import { EXAMPLES_DIR, tempDir } from '../../../helpers/data.js';

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => statSync(path.join(dir, f)).isFile()).sort();
}

/** Copies of the example leg sample_001 under `<dir>/crafted/easy/<name>.json`, each expecting its own elevation (so each gets per-leg answers). */
function writeCraftedLegs(dir: string, names: readonly string[]): string {
  const source = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, 'examples-linear', 'easy', 'sample_001.json'), 'utf8')) as { trail_id: string; stops: Array<{ stop_type: string; extracted_value: unknown }> };
  const legsDir = path.join(dir, 'crafted', 'easy');
  mkdirSync(legsDir, { recursive: true });
  names.forEach((name, i) => {
    const leg = structuredClone(source);
    leg.trail_id = `${source.trail_id}-${i}`;
    leg.stops.find((s) => s.stop_type === 'tool')!.extracted_value = 40 + i / 100;
    writeFileSync(path.join(legsDir, `${name}.json`), JSON.stringify(leg, null, 2));
  });
  return dir;
}

describe('aar world synthesize: per-leg answers of legs whose ids hold `..` and `/` stay inside the store', () => {
  const tmp = tempDir('aar-world-leg-ids-');
  afterAll(() => tmp.cleanup());

  test('ids `crafted/easy/up..` and `crafted/easy/x..%2F..%2Fescape` are encoded as one folder each under per-leg/; what the store held is kept', async () => {
    // Names with `..` (the loader skips dot files, so not leading); the second decodes (once) to `x../../escape`. Every id holds `/`.
    const names = ['first', 'up..', 'x..%2F..%2Fescape'];
    const legsDir = writeCraftedLegs(path.join(tmp.dir, 'legs'), names);
    const { legs, problems } = await loadLegs(legsDir);
    expect(problems).toEqual([]);
    const ids = legs.map((l) => l.id).sort();
    expect(ids).toEqual(['crafted/easy/first', 'crafted/easy/up..', 'crafted/easy/x..%2F..%2Fescape']);

    // A store with entries already: a recorded shared answer to another call, another leg's own answer.
    const storeDir = path.join(tmp.dir, 'work', 'store');
    const before = new ResponseStore(storeDir);
    const other = callIdentity('fetch_webpage', { url: 'https://example.org/kept' });
    const kept = [before.put(other, { ok: true, text: 'kept shared' }, 'synthetic'), before.put(other, { ok: true, text: 'kept own' }, 'synthetic', undefined, 'other/easy/leg')];
    const keptBytes = kept.map((f) => readFileSync(f, 'utf8'));

    const run = runAar(['world', 'synthesize', legsDir, storeDir]);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/synthetic world for 3 legs in .*: .* [1-9]\d* per-leg answers/);

    // Nothing outside the store: its parent holds the store alone, and every file resolves inside it.
    expect(readdirSync(path.join(tmp.dir, 'work'))).toEqual(['store']);
    const root = realpathSync(storeDir) + path.sep;
    for (const f of filesUnder(storeDir)) expect(realpathSync(path.join(storeDir, f)).startsWith(root)).toBe(true);
    // One folder per leg with its own answers, each a direct child of per-leg/, named by its encoded id.
    const folders = readdirSync(path.join(storeDir, PER_LEG_DIR)).sort();
    expect(folders).toEqual(['crafted%2Feasy%2Fup..', 'crafted%2Feasy%2Fx..%252F..%252Fescape', 'other%2Feasy%2Fleg'].sort());
    expect(folders.some((f) => f.includes('/') || f === '..' || f === '.')).toBe(false);
    // What was there before is there, byte for byte.
    expect(kept.map((f) => readFileSync(f, 'utf8'))).toEqual(keptBytes);

    // Each crafted leg reads back its own answer (the elevation it expects), the others' stay theirs.
    const served = new ResponseStore(storeDir);
    const elevationCall = [...filesUnder(path.join(storeDir, PER_LEG_DIR, 'crafted%2Feasy%2Fup..'))].find((f) => f.includes('elevation'));
    expect(elevationCall).toBeDefined();
    const entry = JSON.parse(readFileSync(path.join(storeDir, PER_LEG_DIR, 'crafted%2Feasy%2Fup..', elevationCall!), 'utf8')) as { tool: string; args: Record<string, unknown>; leg: string };
    expect(entry.leg).toBe('crafted/easy/up..');
    const id = callIdentity(entry.tool, entry.args);
    expect(served.get(id, 'crafted/easy/up..')?.text).toContain('40.01');
    expect(served.get(id, 'crafted/easy/x..%2F..%2Fescape')?.text).toContain('40.02');
    expect(served.get(other, 'other/easy/leg')?.text).toBe('kept own');
  });

  test('a leg id that is `..` or `.` as a whole is refused before anything is written: one line naming the leg file and `id`', async () => {
    const legsDir = writeCraftedLegs(path.join(tmp.dir, 'legs-refused'), ['a', 'b']);
    const { legs } = await loadLegs(legsDir);
    const storeDir = path.join(tmp.dir, 'refused-store');
    const store = new ResponseStore(storeDir);
    const shared = store.put(callIdentity('fetch_webpage', { url: 'https://example.org/here' }), { ok: true, text: 'there before' }, 'synthetic');
    const listing = filesUnder(storeDir);
    for (const bad of ['..', '.']) {
      // No file name gives such an id (ids are <variant>/<level>/<name>); a caller building LoadedLegs could.
      const crafted: LoadedLeg[] = [legs[0], { ...legs[1], id: bad }];
      const error = await synthesizeWorld(crafted, store).then(
        () => undefined,
        (e: Error) => e,
      );
      expect(error?.message).toBe(`${legs[1].file}: id: leg id ${JSON.stringify(bad)} cannot name a per-leg store folder (empty, . or ..)`);
      expect(error?.message.split('\n')).toHaveLength(1);
      expect(filesUnder(storeDir)).toEqual(listing);
      expect(readFileSync(shared, 'utf8')).toContain('there before');
    }
    expect(() => store.put(callIdentity('fetch_webpage', { url: 'https://example.org/here' }), { ok: true, text: 'x' }, 'synthetic', undefined, '..')).toThrow('leg id ".." cannot name a per-leg store folder');
    expect(filesUnder(storeDir)).toEqual(listing);
  });
});
