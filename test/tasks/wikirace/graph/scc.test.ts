import fc from 'fast-check';
import { LinkGraph } from '../../../../tasks/wikirace/graph/graph.js';
import { distancesTo, UNREACHABLE } from '../../../../tasks/wikirace/graph/distances.js';
import { csrFromEdges } from '../../../../tasks/wikirace/graph/edges.js';
import { largestComponent, stronglyConnectedComponents } from '../../../../tasks/wikirace/graph/scc.js';

const names = (n: number): string[] => Array.from({ length: n }, (_, i) => `P${i}`);

describe('strongly connected components', () => {
  test('a cycle of three, a cycle of two and a lone page', () => {
    const graph = LinkGraph.fromEdges(names(6), [[0, 1], [1, 2], [2, 0], [2, 3], [3, 4], [4, 3], [5, 0]]);
    const { component, count } = stronglyConnectedComponents(graph);
    expect(count).toBe(3);
    expect(component[0]).toBe(component[1]);
    expect(component[1]).toBe(component[2]);
    expect(component[3]).toBe(component[4]);
    expect(new Set(component).size).toBe(3);
    const largest = largestComponent(graph);
    expect([...largest.titles]).toEqual(['P0', 'P1', 'P2']);
    expect(largest.linkCount).toBe(3);
  });

  test('a path of 200,000 pages and back needs no recursion', () => {
    const n = 200_000;
    const from = new Uint32Array(2 * (n - 1));
    const to = new Uint32Array(2 * (n - 1));
    for (let i = 0; i < n - 1; i++) {
      from[2 * i] = i; to[2 * i] = i + 1;
      from[2 * i + 1] = i + 1; to[2 * i + 1] = i;
    }
    const graph = csrFromEdges(names(n), from, to);
    expect(stronglyConnectedComponents(graph).count).toBe(1);
    expect(largestComponent(graph).pageCount).toBe(n);
  });

  test('agrees with reachability both ways on random graphs', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(fc.tuple(fc.nat(11), fc.nat(11)), { maxLength: 40 }), (n, raw) => {
        const graph = LinkGraph.fromEdges(names(n), raw.filter(([a, b]) => a < n && b < n));
        const { component } = stronglyConnectedComponents(graph);
        const back = graph.reversed();
        for (let a = 0; a < n; a++) {
          const toA = distancesTo(back, a);
          const fromA = distancesTo(graph, a); // distances in the reversed-of-reversed: a reaches b
          for (let b = 0; b < n; b++) {
            const same = toA[b] !== UNREACHABLE && fromA[b] !== UNREACHABLE;
            if (same !== (component[a] === component[b])) return false;
          }
        }
        return true;
      }),
    );
  });
});

describe('csrFromEdges', () => {
  test('sorts each row and drops repeats and self-links', () => {
    const graph = csrFromEdges(names(3), Uint32Array.of(2, 0, 0, 0, 1), Uint32Array.of(0, 2, 1, 2, 1));
    expect([...graph.linksOf(0)]).toEqual([1, 2]);
    expect([...graph.linksOf(1)]).toEqual([]);
    expect([...graph.linksOf(2)]).toEqual([0]);
    expect(graph.linkCount).toBe(3);
  });
});
