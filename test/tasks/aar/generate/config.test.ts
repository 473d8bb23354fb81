import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { tempDir, REPO_ROOT } from '../../../helpers/data.js';
import { loadGenerateConfig } from '../../../../tasks/aar/generate/config.js';
import { LEVELS } from '../../../../tasks/aar/generate/levels.js';

const EXAMPLE = path.join(REPO_ROOT, 'configs', 'generate-example.yaml');
let dir: string;
let cleanup: () => void;
beforeAll(() => ({ dir, cleanup } = tempDir('aar-genconf-')));
afterAll(() => cleanup());
const file = (name: string, text: string): string => {
  const f = path.join(dir, name);
  writeFileSync(f, text);
  return f;
};
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('the generation config', () => {
  test('every generation config the package ships loads (configs/generate-*.yaml)', () => {
    const shipped = readdirSync(path.join(REPO_ROOT, 'configs')).filter((f) => f.startsWith('generate-') && f.endsWith('.yaml'));
    expect(shipped.length).toBeGreaterThanOrEqual(2);
    for (const f of shipped) expect(loadGenerateConfig(path.join(REPO_ROOT, 'configs', f)).levels.length).toBeGreaterThan(0);
  });

  test('the example: four levels as the paper\'s appendix B, both variants, the scripted model, paths from the config\'s folder', () => {
    const loaded = loadGenerateConfig(EXAMPLE);
    expect(loaded.levels).toEqual([LEVELS.easy, LEVELS.medium, LEVELS.hard, LEVELS.extreme]);
    expect(loaded.config.variants).toEqual(['linear', 'dag']);
    expect(loaded.config.model).toMatchObject({ provider: 'scripted', steps: ['plan', 'extract', 'verbalize', 'roundtrip'] });
    expect(loaded.resolve(loaded.config.tools.world!)).toBe(path.join(REPO_ROOT, 'tasks', 'examples-generate', 'world.yaml'));
    expect(loaded.seedUrls[0]).toBe('https://en.wikipedia.org/wiki/Port_Alder');
  });

  test('flags lay over the file: seeds, levels, variants, legs per level, the model steps', () => {
    const loaded = loadGenerateConfig(EXAMPLE, { seedUrl: ['https://en.wikipedia.org/wiki/Tarnby'], levels: ['hard'], variants: ['dag'], legsPerLevel: 2, modelSteps: ['verbalize'] });
    expect(loaded.seedUrls).toEqual(['https://en.wikipedia.org/wiki/Tarnby']);
    expect(loaded.levels.map((l) => l.name)).toEqual(['hard']);
    expect(loaded.config).toMatchObject({ variants: ['dag'], legs_per_level: 2, model: { steps: ['verbalize'] } });
    expect(loadGenerateConfig(EXAMPLE, { modelSteps: ['none'] }).config.model).toBeUndefined();
    const levels = file('levels.yaml', 'name: tiny\nstops: [4, 5]\nroadblocks: [1, 1]\ndetours: [1, 1]\ndiamonds: [1, 1]\nextraction: [infobox]\ncrawl_depth: 1\n');
    expect(loadGenerateConfig(EXAMPLE, { levelFile: levels }).levels).toEqual([{ name: 'tiny', stops: [4, 5], roadblocks: [1, 1], detours: [1, 1], diamonds: [1, 1], extraction: ['infobox'], crawl_depth: 1, max_pages: 60 }]);
  });

  test('bad input is one line naming the file (with line and column) and the key', () => {
    const typo = file('typo.yaml', 'seeds: { random: 3 }\nlevels: [easy]\nlegs_per_levle: 2\n');
    expect(() => loadGenerateConfig(typo)).toThrow(new RegExp(`^${escape(typo)}:1:1: Unrecognized key: "legs_per_levle"`));
    const range = file('range.yaml', 'seeds: { random: 3 }\nlevels:\n  - { name: x, stops: [9, 4], roadblocks: [1, 1], detours: [1, 1], diamonds: [1, 1], extraction: [infobox], crawl_depth: 1 }\n');
    expect(() => loadGenerateConfig(range)).toThrow(new RegExp(`^${escape(range)}:3:\\d+: levels\\[0\\]\\.stops: a range is \\[low, high\\]`));
    expect(() => loadGenerateConfig(file('none.yaml', 'levels: [easy]\n'))).toThrow(/none\.yaml: seeds: none given/);
    expect(() => loadGenerateConfig(file('two.yaml', 'seeds: { random: 3, urls: [] }\n'))).toThrow(/two\.yaml:1:\d+: seeds: give exactly one of urls, file and random/);
    expect(() => loadGenerateConfig(file('level.yaml', 'seeds: { random: 3 }\nlevels: [legendary]\n'))).toThrow(/level\.yaml: levels\[0\]: unknown level "legendary"/);
    expect(() => loadGenerateConfig(EXAMPLE, { seeds: 'a.txt', random: 2 })).toThrow('give at most one of --seed-url, --seeds and --random');
    expect(() => loadGenerateConfig(file('seedfile.yaml', 'seeds: { file: missing.txt }\n'))).toThrow(/seedfile\.yaml: seeds\.file: cannot read .*missing\.txt \(ENOENT\)/);
    expect(() => loadGenerateConfig(file('nomodel.yaml', 'seeds: { random: 3 }\n'), { modelSteps: ['plan'] })).toThrow(/--model-steps: .*nomodel\.yaml names no model/);
    expect(() => loadGenerateConfig(file('pinned.yaml', 'seeds: { random: 3 }\ntools: { mode: pinned }\n'))).toThrow(/pinned\.yaml: tools: mode pinned needs tools\.store/);
  });
});
