import { LinkGraph } from '../../../../tasks/wikirace/graph/graph.js';
import { distancesTo } from '../../../../tasks/wikirace/graph/distances.js';
import { offeredLinks } from '../../../../tasks/wikirace/graph/options.js';

// Page 0 links to pages 1..120; page i (1..120) reaches the target 121 directly when i % 3 == 0,
// through page 122 when i % 3 == 1, and not at all when i % 3 == 2.
const n = 123;
const titles = Array.from({ length: n }, (_, i) => `Page ${i}`);
const edges: [number, number][] = [];
for (let i = 1; i <= 120; i++) {
  edges.push([0, i]);
  if (i % 3 === 0) edges.push([i, 121]);
  if (i % 3 === 1) edges.push([i, 122]);
}
edges.push([122, 121]);
const graph = LinkGraph.fromEdges(titles, edges);
const distances = distancesTo(graph.reversed(), 121);

describe('offeredLinks', () => {
  test('offers the nearest links: all 40 at distance 1, then 10 of the 40 at distance 2', () => {
    const offered = offeredLinks(graph, distances, 0, 7);
    expect(offered).toHaveLength(50);
    expect(new Set(offered).size).toBe(50);
    expect(offered.filter((p) => p % 3 === 0)).toHaveLength(40);
    expect(offered.filter((p) => p % 3 === 1)).toHaveLength(10);
    expect(offered.filter((p) => p % 3 === 2)).toHaveLength(0);
  });

  test('the same seed gives the same list; another seed another order', () => {
    expect(offeredLinks(graph, distances, 0, 7)).toEqual(offeredLinks(graph, distances, 0, 7));
    expect(offeredLinks(graph, distances, 0, 8)).not.toEqual(offeredLinks(graph, distances, 0, 7));
  });

  test('the order is not by distance or by page number', () => {
    const offered = offeredLinks(graph, distances, 0, 7);
    expect(offered).not.toEqual([...offered].sort((a, b) => a - b));
    expect(offered.slice(0, 40).every((p) => p % 3 === 0)).toBe(false);
  });

  test('a page with few links offers all of them, shuffled; a page with none offers none', () => {
    expect(offeredLinks(graph, distances, 3, 1)).toEqual([121]);
    expect(offeredLinks(graph, distances, 121, 1)).toEqual([]);
    expect([...offeredLinks(graph, distances, 0, 1, 200)].sort((a, b) => a - b)).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
  });

  test('a smaller limit keeps only the nearest', () => {
    const offered = offeredLinks(graph, distances, 0, 3, 5);
    expect(offered).toHaveLength(5);
    expect(offered.every((p) => distances[p] === 1)).toBe(true);
  });
});
