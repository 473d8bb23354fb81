import { LinkGraph } from '../../../../tasks/wikirace/graph/graph.js';
import { distancesTo } from '../../../../tasks/wikirace/graph/distances.js';
import { parseProbeAnswer, probePairs, scoreProbe, type ProbePair } from '../../../../tasks/wikirace/graph/probe.js';
import { EXAMPLE_GRAPH, syntheticGraph } from '../../../../tasks/wikirace/graph/synthetic.js';

const graph = syntheticGraph(EXAMPLE_GRAPH);

describe('probePairs', () => {
  test("the paper's design: as many of each class (linked, distance 2, 3, 4, reversed), so 1 linked to 4 not; each pair what its class says", () => {
    const pairs = probePairs(graph, 40, 3);
    expect(pairs).toHaveLength(200);
    const count = (kind: string): number => pairs.filter((p) => p.kind === kind).length;
    expect([count('connected'), count('distance-2'), count('distance-3'), count('distance-4'), count('reversed')]).toEqual([40, 40, 40, 40, 40]);
    const back = graph.reversed();
    for (const p of pairs) {
      expect(graph.hasLink(p.source, p.target)).toBe(p.connected);
      const d = distancesTo(back, p.target, graph)[p.source];
      if (p.kind.startsWith('distance-')) expect(d).toBe(Number(p.kind.slice(-1)));
      if (p.kind === 'reversed') expect(graph.hasLink(p.target, p.source)).toBe(true);
    }
    expect(probePairs(graph, 40, 3)).toEqual(pairs);
    expect(probePairs(graph, 40, 4)).not.toEqual(pairs);
  });

  test("the paper's 1,000 questions (200 a class) hold no pair twice, and each class's sources are distinct pages", () => {
    const pairs = probePairs(graph, 200, 1);
    expect(pairs).toHaveLength(1000);
    expect(new Set(pairs.map((p) => `${p.source}>${p.target}`)).size).toBe(1000);
    for (const kind of ['connected', 'distance-2', 'distance-3', 'distance-4', 'reversed']) {
      const sources = pairs.filter((p) => p.kind === kind).map((p) => p.source);
      expect(new Set(sources).size).toBe(sources.length);
    }
  });

  test('a graph without the wanted classes is an error', () => {
    const pair = LinkGraph.fromEdges(['A', 'B'], [[0, 1], [1, 0]]);
    expect(() => probePairs(pair, 4, 1, 100)).toThrow('probe: found 2 of 4 connected pairs from 2 random sources (every page)');
  });
});

describe('answers and scores', () => {
  test('the last \\boxed{yes|no} counts; none means left out', () => {
    expect(parseProbeAnswer('Maybe \\boxed{no}... on reflection \\boxed{Yes}')).toBe(true);
    expect(parseProbeAnswer('\\boxed{\\text{no}}')).toBe(false);
    expect(parseProbeAnswer('yes, surely')).toBeUndefined();
  });

  test('precision, recall and F1 with linked as the positive class', () => {
    const pair = (connected: boolean): ProbePair => ({ source: 0, target: 1, kind: connected ? 'connected' : 'reversed', connected });
    const s = scoreProbe([
      { pair: pair(true), answer: true },
      { pair: pair(true), answer: false },
      { pair: pair(false), answer: true },
      { pair: pair(false), answer: false },
      { pair: pair(false), answer: false },
      { pair: pair(false), answer: undefined },
    ]);
    expect(s).toMatchObject({ asked: 6, unparsed: 1, failed: 0, truePositive: 1, falseNegative: 1, falsePositive: 1, trueNegative: 2, precision: 0.5, recall: 0.5, f1: 0.5 });
    expect(s.accuracyByClass).toEqual({ connected: 0.5, 'distance-2': null, 'distance-3': null, 'distance-4': null, reversed: 2 / 3 });
  });
});
