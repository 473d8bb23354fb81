import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { distancesTo } from '../../../../tasks/wikirace/graph/distances.js';
import { generatePairs, parseSplitCounts, PAPER_SPLITS, writePairFiles } from '../../../../tasks/wikirace/graph/pairs.js';
import { readGraphFolder, writeGraphFolder } from '../../../../tasks/wikirace/graph/store.js';
import { EXAMPLE_GRAPH, PAPER_SCALE_GRAPH, syntheticGraph } from '../../../../tasks/wikirace/graph/synthetic.js';

const graph = syntheticGraph(EXAMPLE_GRAPH);

describe('generatePairs', () => {
  test("the paper's splits: counts even across the two lengths, each pair at its shortest-path length", () => {
    const pairs = generatePairs(graph, PAPER_SPLITS, 1);
    expect(pairs).toHaveLength(450);
    for (const split of PAPER_SPLITS) {
      const mine = pairs.filter((p) => p.split === split.name);
      expect(mine).toHaveLength(split.count);
      for (const length of split.lengths) expect(mine.filter((p) => p.length === length)).toHaveLength(split.count / 2);
    }
    const back = graph.reversed();
    for (const p of pairs.slice(0, 60)) expect(distancesTo(back, p.target)[p.source]).toBe(p.length);
    expect(new Set(pairs.map((p) => `${p.source}>${p.target}`)).size).toBe(450);
  });

  test('every pair has its own source, drawn for it: 450 pairs, 450 distinct sources, none shared across splits', () => {
    const pairs = generatePairs(graph, PAPER_SPLITS, 1);
    expect(new Set(pairs.map((p) => p.source)).size).toBe(450);
    const examples = generatePairs(graph, parseSplitCounts('easy=6,medium=6,hard=6'), 1);
    expect(new Set(examples.map((p) => p.source)).size).toBe(18);
  });

  test("the paper preset's shape has the paper's hard lengths: its 450 pairs draw at 60,000 pages (7 and 8 links included)", () => {
    const paperShape = syntheticGraph({ ...PAPER_SCALE_GRAPH, pages: 60_000 });
    const pairs = generatePairs(paperShape, PAPER_SPLITS, 1);
    expect(pairs.filter((p) => p.length === 7)).toHaveLength(50);
    expect(pairs.filter((p) => p.length === 8)).toHaveLength(50);
    expect(new Set(pairs.map((p) => p.source)).size).toBe(450);
    const back = paperShape.reversed();
    for (const p of pairs.filter((q) => q.length >= 7).slice(0, 10)) expect(distancesTo(back, p.target)[p.source]).toBe(p.length);
  });

  test('the same seed gives the same pairs, another seed others', () => {
    const splits = parseSplitCounts('easy=4,hard=3');
    expect(generatePairs(graph, splits, 9)).toEqual(generatePairs(graph, splits, 9));
    expect(generatePairs(graph, splits, 10)).not.toEqual(generatePairs(graph, splits, 9));
    expect(generatePairs(graph, splits, 9).map((p) => p.length)).toEqual([3, 3, 4, 4, 7, 7, 8]);
  });

  test('lengths the graph does not have are an error with the counts found, not fewer pairs or an endless search; progress is reported', () => {
    const small = syntheticGraph({ pages: 50, seed: 1, localLinks: 6, window: 10, farLinks: 4 });
    expect(() => generatePairs(small, parseSplitCounts('easy=4'), 1)).toThrow(/^pairs: cannot fill length 4: (every page was searched as a source|\d+ sources in a row have no page at that distance); found 3: 2\/2, 4: 0\/2 \(length: found\/wanted\) from \d+ sources of 50 pages/);
    expect(() => generatePairs(graph, PAPER_SPLITS, 1, { maxSources: 100 })).toThrow(/the limit of 100 sources was reached; found 3: \d+\/100, 4: \d+\/100, 5: \d+\/75, 6: \d+\/75, 7: \d+\/50, 8: \d+\/50/);
    const seen: number[] = [];
    const far = syntheticGraph({ pages: 3000, seed: 2, localLinks: 2, window: 3, farLinks: 0 });
    expect(() => generatePairs(far, [{ name: 'hard', count: 2, lengths: [7000] }], 1, { patience: 250, onProgress: (p) => seen.push(p.sources) })).toThrow(
      /^pairs: cannot fill length 7000: 250 sources in a row have no page at that distance; found 7000: 0\/2/,
    );
    expect(seen).toContain(200);
    expect(() => parseSplitCounts('easy=2,tricky=3')).toThrow('--splits: want name=count pairs');
  });
});

describe('writePairFiles', () => {
  test('one task file per pair, pointing at the graph folder by a relative path with its checksum', async () => {
    const root = mkdtempSync(join(tmpdir(), 'aar-pairs-'));
    const header = await writeGraphFolder(join(root, 'graph'), graph, { source: 'test', synthetic: true });
    const pairs = generatePairs(graph, parseSplitCounts('easy=2,medium=2'), 3);
    const files = await writePairFiles(join(root, 'tasks'), pairs, graph, join(root, 'graph'), header);
    expect(readdirSync(join(root, 'tasks', 'easy'))).toEqual(['001.json', '002.json']);
    const task = JSON.parse(readFileSync(files[2]!, 'utf8'));
    expect(task).toEqual({
      family: 'wikirace', id: 'medium/001', split: 'medium', source: graph.titles[pairs[2]!.source], target: graph.titles[pairs[2]!.target],
      optimal_length: 5, graph: '../../graph', graph_sha256: header.sha256, synthetic: true,
    });
    const loaded = await readGraphFolder(resolve(dirname(files[2]!), task.graph));
    expect(loaded.header.sha256).toBe(task.graph_sha256);
  });
});
