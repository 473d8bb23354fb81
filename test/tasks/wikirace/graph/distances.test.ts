import fc from 'fast-check';
import { LinkGraph } from '../../../../tasks/wikirace/graph/graph.js';
import { distancesTo } from '../../../../tasks/wikirace/graph/distances.js';
import { syntheticGraph } from '../../../../tasks/wikirace/graph/synthetic.js';

describe('direction-optimizing search', () => {
  test('gives the same distances as the plain backwards search on random graphs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 30 }), fc.array(fc.tuple(fc.nat(29), fc.nat(29)), { maxLength: 200 }), fc.nat(29), (n, raw, t) => {
        const graph = LinkGraph.fromEdges(Array.from({ length: n }, (_, i) => `P${i}`), raw.filter(([a, b]) => a < n && b < n));
        const back = graph.reversed();
        const target = t % n;
        expect([...distancesTo(back, target, graph)]).toEqual([...distancesTo(back, target)]);
      }),
    );
  });

  test('and on a small-world graph of 20,000 pages, where it switches to bottom-up', () => {
    const graph = syntheticGraph({ pages: 20_000, seed: 5, localLinks: 6, window: 10, farLinks: 3 });
    const back = graph.reversed();
    for (const target of [0, 777, 19_999]) expect(distancesTo(back, target, graph)).toEqual(distancesTo(back, target));
  });
});
