import { filterLegs } from '../../../tasks/aar/filter.js';
import { globToRegExp } from '../../../tasks/selection.js';
import type { LoadedLeg } from '../../../tasks/aar/load.js';

const ids = ['aar-dag/easy/sample_003', 'aar-dag/easy/sample_004', 'aar-dag/hard/sample_010', 'aar-linear/easy/sample_000', 'aar-linear/extreme/sample_100'];
const legs = ids.map((id) => {
  const [variant, level] = id.split('/');
  return { id, variant, level } as LoadedLeg;
});
const pick = (f: Parameters<typeof filterLegs>[1]) => filterLegs(legs, f).map((l) => l.id);

describe('task-set filters', () => {
  test('variant and level', () => {
    expect(pick({ variants: ['aar-dag'], levels: ['easy'] })).toEqual(['aar-dag/easy/sample_003', 'aar-dag/easy/sample_004']);
  });
  test('ids as exact ids and globs, and exclusions', () => {
    expect(pick({ ids: ['aar-linear/easy/sample_000', 'aar-dag/*/sample_01*'] })).toEqual(['aar-dag/hard/sample_010', 'aar-linear/easy/sample_000']);
    expect(pick({ ids: ['**/sample_00*'], exclude: ['aar-dag/**'] })).toEqual(['aar-linear/easy/sample_000']);
  });
  test('limit takes the first n in id order', () => {
    expect(pick({ limit: 2 })).toEqual(ids.slice(0, 2));
  });
  test('a seeded sample is reproducible and differs by seed', () => {
    const a = pick({ sample: { n: 3, seed: 7 } });
    expect(a).toHaveLength(3);
    expect(pick({ sample: { n: 3, seed: 7 } })).toEqual(a);
    const seeds = new Set([1, 2, 3, 4, 5, 6].map((seed) => pick({ sample: { n: 2, seed } }).join()));
    expect(seeds.size).toBeGreaterThan(1);
  });
  test('globs: * stays in a segment, ** crosses', () => {
    expect(globToRegExp('aar-dag/*').test('aar-dag/easy/sample_003')).toBe(false);
    expect(globToRegExp('aar-dag/**').test('aar-dag/easy/sample_003')).toBe(true);
    expect(globToRegExp('a?c').test('abc')).toBe(true);
  });
  test('unknown filter keys are refused', () => {
    expect(() => filterLegs(legs, { level: ['easy'] } as never)).toThrow(/level/);
  });
});
