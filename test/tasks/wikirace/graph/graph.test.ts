import { LinkGraph } from '../../../../tasks/wikirace/graph/graph.js';
import { DistanceCache, UNREACHABLE, distancesTo } from '../../../../tasks/wikirace/graph/distances.js';

// A -> B -> C -> D, A -> C, D -> A; E only links out (to A) and nothing links to it.
const titles = ['A', 'B', 'C', 'D', 'E'];
const graph = LinkGraph.fromEdges(titles, [[0, 1], [1, 2], [2, 3], [0, 2], [3, 0], [4, 0], [0, 1], [2, 2]]);

describe('LinkGraph', () => {
  test('keeps each link once, sorted, and drops self-links', () => {
    expect(graph.linkCount).toBe(6);
    expect([...graph.linksOf(0)]).toEqual([1, 2]);
    expect([...graph.linksOf(2)]).toEqual([3]);
    expect(graph.hasLink(0, 2)).toBe(true);
    expect(graph.hasLink(2, 0)).toBe(false);
    expect(graph.pageOf('D')).toBe(3);
    expect(graph.pageOf('Z')).toBeUndefined();
  });

  test('reversed swaps every link', () => {
    const back = graph.reversed();
    expect([...back.linksOf(0)]).toEqual([3, 4]);
    expect([...back.linksOf(2)]).toEqual([0, 1]);
    expect(back.linkCount).toBe(graph.linkCount);
  });

  test('refuses links outside the pages', () => {
    expect(() => LinkGraph.fromEdges(titles, [[0, 9]])).toThrow('link 0 -> 9 outside 0..4');
  });
});

describe('distances to a target', () => {
  test('one backwards search gives the links needed from every page', () => {
    const d = distancesTo(graph.reversed(), 3);
    expect([...d]).toEqual([2, 2, 1, 0, 3]);
    expect(distancesTo(graph.reversed(), 4)[0]).toBe(UNREACHABLE);
  });

  test('the cache returns the same array for the same target', () => {
    const cache = new DistanceCache(graph, 1);
    const first = cache.to(3);
    expect(cache.to(3)).toBe(first);
    cache.to(1);
    expect(cache.to(3)).not.toBe(first);
  });
});
