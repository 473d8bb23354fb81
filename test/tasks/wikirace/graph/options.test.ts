import { LinkGraph } from '../../../../tasks/wikirace/graph/graph.js';
import { distancesTo } from '../../../../tasks/wikirace/graph/distances.js';
import { offeredLinks } from '../../../../tasks/wikirace/graph/options.js';
import { PAPER_SCALE_GRAPH, syntheticGraph } from '../../../../tasks/wikirace/graph/synthetic.js';

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

  // Over 2,000 seeds the page offers its 40 links at distance 1 and 10 of its 40 at distance 2. In a random
  // order each class sits at mean position 24.5 (0-based, of 50) and the last link is at distance 1 with
  // probability 40/50; before the second shuffle the distance-2 links sat at 9.9 and the last was always at 1.
  test('the order carries no distance: each class at the mean position of a uniform order, P(last) as uniform', () => {
    const seeds = 2000;
    const positions = { 1: [] as number[], 2: [] as number[] };
    let lastNear = 0;
    const nearAt = new Array<number>(50).fill(0);
    const picked = new Map<number, number>();
    for (let seed = 0; seed < seeds; seed++) {
      const offered = offeredLinks(graph, distances, 0, seed);
      offered.forEach((p, i) => {
        positions[distances[p] as 1 | 2].push(i);
        if (distances[p] === 1) nearAt[i]!++;
        else picked.set(p, (picked.get(p) ?? 0) + 1);
      });
      if (distances[offered.at(-1)!] === 1) lastNear++;
    }
    const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(positions[1]).toHaveLength(40 * seeds);
    expect(positions[2]).toHaveLength(10 * seeds);
    // Standard errors: about 0.05 for class 1's mean and 0.1 for class 2's (positions within a list are
    // negatively correlated, so less), 0.009 for P(last): the bounds are 5 or more of them.
    expect(Math.abs(mean(positions[1]) - 24.5)).toBeLessThan(0.5);
    expect(Math.abs(mean(positions[2]) - 24.5)).toBeLessThan(1);
    expect(Math.abs(lastNear / seeds - 0.8)).toBeLessThan(0.045);
    // Every position, not only the last, holds a distance-1 link 80% of the time.
    for (const count of nearAt) expect(Math.abs(count / seeds - 0.8)).toBeLessThan(0.045);
    // The 10 of 40 tied links are a uniform draw: each of the 40 makes the cut a quarter of the time.
    expect(picked.size).toBe(40);
    for (const count of picked.values()) expect(Math.abs(count / seeds - 0.25)).toBeLessThan(0.05);
  });

  test('on the capped pages of a paper-shaped graph the last link is among the nearest as often as a uniform pick', () => {
    const big = syntheticGraph({ ...PAPER_SCALE_GRAPH, pages: 6000 });
    const back = big.reversed();
    let capped = 0;
    let observed = 0;
    let expected = 0;
    for (const target of [17, 2500, 4999]) {
      const d = distancesTo(back, target);
      for (let page = 0; page < big.pageCount; page++) {
        if (big.linksOf(page).length <= 50 || page === target) continue;
        const offered = offeredLinks(big, d, page, page * 7 + target);
        const nearest = Math.min(...offered.map((p) => d[p]!));
        capped++;
        if (d[offered.at(-1)!] === nearest) observed++;
        expected += offered.filter((p) => d[p] === nearest).length / offered.length;
      }
    }
    expect(capped).toBeGreaterThan(1000);
    // A binomial count: its standard deviation is at most sqrt(capped) / 2.
    expect(Math.abs(observed - expected)).toBeLessThan(4 * Math.sqrt(capped) / 2);
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
