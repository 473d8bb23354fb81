import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { distancesTo } from '../../../../tasks/wikirace/graph/distances.js';
import { readGraphFolder } from '../../../../tasks/wikirace/graph/store.js';
import { EXAMPLE_GRAPH, syntheticGraph } from '../../../../tasks/wikirace/graph/synthetic.js';
import { REPO_ROOT } from '../../../helpers/data.js';

const root = join(REPO_ROOT, 'tasks', 'examples-wikirace');

describe('the committed example graph and pairs', () => {
  test('the graph folder reads back, checks out, and is what the generator makes from its seed', async () => {
    const { graph, header } = await readGraphFolder(join(root, 'graph'));
    expect(header.synthetic).toBe(true);
    const again = syntheticGraph(EXAMPLE_GRAPH);
    expect([...graph.titles]).toEqual([...again.titles]);
    expect(Buffer.from(graph.targets.buffer, graph.targets.byteOffset, graph.targets.byteLength).equals(Buffer.from(again.targets.buffer, again.targets.byteOffset, again.targets.byteLength))).toBe(true);
  });

  test('every task file names two pages of the graph at its optimal length, and the graph by path and checksum', async () => {
    const { graph, header } = await readGraphFolder(join(root, 'graph'));
    const back = graph.reversed();
    let count = 0;
    for (const split of ['easy', 'medium', 'hard']) {
      for (const name of readdirSync(join(root, split))) {
        const file = join(root, split, name);
        const task = JSON.parse(readFileSync(file, 'utf8'));
        expect(task.family).toBe('wikirace');
        expect(task.id).toBe(`${split}/${name.replace(/\.json$/, '')}`);
        expect(resolve(dirname(file), task.graph)).toBe(join(root, 'graph'));
        expect(task.graph_sha256).toBe(header.sha256);
        const d = distancesTo(back, graph.pageOf(task.target)!, graph);
        expect(d[graph.pageOf(task.source)!]).toBe(task.optimal_length);
        expect({ easy: [3, 4], medium: [5, 6], hard: [7, 8] }[split]).toContain(task.optimal_length);
        count++;
      }
    }
    expect(count).toBe(18);
  });
});
