import { BigMap } from '../../../../tasks/wikirace/graph/big-map.js';

describe('BigMap', () => {
  test('holds number and string keys across shards like a Map', () => {
    const ids = new BigMap<number, number>(4);
    const titles = new BigMap<string, number>(4);
    for (let i = 0; i < 1000; i++) {
      ids.set(i * 7, i);
      titles.set(`Page ${i}`, i);
    }
    expect(ids.size).toBe(1000);
    expect(ids.get(7 * 999)).toBe(999);
    expect(ids.get(1)).toBeUndefined();
    expect(titles.get('Page 512')).toBe(512);
    expect(titles.get('Café')).toBeUndefined();
    titles.clear();
    expect(titles.size).toBe(0);
  });
});
