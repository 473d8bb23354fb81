import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DistanceCache } from '../../tasks/wikirace/graph/distances.js';
import { LinkGraph } from '../../tasks/wikirace/graph/graph.js';
import { writeGraphFolder } from '../../tasks/wikirace/graph/store.js';
import type { WikiraceTask } from '../../tasks/wikirace/schema.js';

/**
 * A small game world for tests: 80 pages on a ring with two chords each, so every page reaches every
 * other, plus `Hub` (page 0) linking to all pages, so one page offers more than the 50-link limit.
 */
export function testGraph(): LinkGraph {
  const n = 80;
  const titles = ['Hub', ...Array.from({ length: n - 1 }, (_, i) => `Page ${i + 1}`)];
  const edges: [number, number][] = [];
  for (let i = 1; i < n; i++) {
    const ring = (k: number): number => 1 + ((k - 1 + (n - 1)) % (n - 1));
    edges.push([i, ring(i + 1)], [i, ring(i + 7)], [i, ring(i * 3 + 2)]);
    edges.push([0, i]);
  }
  edges.push([5, 0]);
  return LinkGraph.fromEdges(titles, edges);
}

export interface TestGame {
  dir: string;
  graphDir: string;
  tasks: WikiraceTask[];
  /** Task files by id. */
  files: Record<string, string>;
}

/** Writes the graph folder and task files (pairs chosen by their shortest-path length) under dir. */
export async function writeTestGame(dir: string, pairs: { split: WikiraceTask['split']; source: string; target: string }[]): Promise<TestGame> {
  const graph = testGraph();
  const graphDir = path.join(dir, 'graph');
  const header = await writeGraphFolder(graphDir, graph, { source: 'test ring with chords', synthetic: true });
  const distances = new DistanceCache(graph);
  const tasks: WikiraceTask[] = [];
  const files: Record<string, string> = {};
  pairs.forEach((p, i) => {
    const optimal = distances.to(graph.pageOf(p.target)!)[graph.pageOf(p.source)!]!;
    const id = `${p.split}/pair_${String(i + 1).padStart(3, '0')}`;
    const task: WikiraceTask = { family: 'wikirace', id, split: p.split, source: p.source, target: p.target, optimal_length: optimal, graph: '../graph', graph_sha256: header.sha256, synthetic: true };
    const file = path.join(dir, `${id}.json`);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(task, null, 2) + '\n');
    tasks.push(task);
    files[id] = file;
  });
  return { dir, graphDir, tasks, files };
}
