import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { mixSeeds, seededRandom } from '../../random.js';
import { distancesTo } from './distances.js';
import type { LinkGraph } from './graph.js';
import type { GraphHeader } from './store.js';

export type SplitName = 'easy' | 'medium' | 'hard';

export interface SplitSpec {
  name: SplitName;
  /** Pairs in the split, shared evenly by its lengths (the first lengths take any remainder). */
  count: number;
  lengths: number[];
}

/** The paper's splits (section 2, appendix A): 200 easy at 3 and 4, 150 medium at 5 and 6, 100 hard at 7 and 8. */
export const PAPER_SPLITS: readonly SplitSpec[] = [
  { name: 'easy', count: 200, lengths: [3, 4] },
  { name: 'medium', count: 150, lengths: [5, 6] },
  { name: 'hard', count: 100, lengths: [7, 8] },
];

export interface Pair {
  split: SplitName;
  id: string;
  source: number;
  target: number;
  length: number;
}

/** The task file h11b's loader reads (tasks/wikirace/schema.ts holds its schema). */
export interface PairTaskFile {
  family: 'wikirace';
  id: string;
  split: SplitName;
  source: string;
  target: string;
  optimal_length: number;
  graph: string;
  graph_sha256: string;
  synthetic: boolean;
}

const shareOf = (split: SplitSpec, i: number): number =>
  Math.floor(split.count / split.lengths.length) + (i < split.count % split.lengths.length ? 1 : 0);

/**
 * Source/target pairs by shortest-path length, as the paper draws them: a random source page, then a
 * random target at exactly the wanted distance from it (one forward search per source). Each source
 * gives at most one pair per length and no pair repeats. Same graph and seed, same pairs.
 */
export function generatePairs(graph: LinkGraph, splits: readonly SplitSpec[], seed: number, maxSources = 20_000): Pair[] {
  const random = seededRandom(mixSeeds(seed, 0x9a125));
  const wanted = new Map<number, number>();
  for (const split of splits) {
    split.lengths.forEach((length, i) => wanted.set(length, (wanted.get(length) ?? 0) + shareOf(split, i)));
  }
  const found = new Map<number, [number, number][]>([...wanted.keys()].map((l) => [l, []]));
  const used = new Set<string>();
  const open = (): number[] => [...wanted].filter(([l, w]) => found.get(l)!.length < w).map(([l]) => l);
  const back = graph.reversed();
  let sources = 0;
  for (; open().length > 0 && sources < maxSources && graph.pageCount > 0; sources++) {
    const source = Math.floor(random() * graph.pageCount);
    const from = distancesTo(graph, source, back); // searching forward links: links needed from `source` to each page
    const byLength = new Map<number, number[]>(open().map((l) => [l, []]));
    for (let page = 0; page < from.length; page++) byLength.get(from[page]!)?.push(page);
    for (const [length, candidates] of byLength) {
      if (candidates.length === 0) continue;
      const target = candidates[Math.floor(random() * candidates.length)]!;
      const key = `${source}>${target}`;
      if (used.has(key)) continue;
      used.add(key);
      found.get(length)!.push([source, target]);
    }
  }
  const short = open();
  if (short.length > 0) {
    const l = short[0]!;
    throw new Error(`pairs: found ${found.get(l)!.length} of ${wanted.get(l)} pairs at length ${l} from ${sources} random sources (does the graph have shortest paths that long?)`);
  }
  const pairs: Pair[] = [];
  for (const split of splits) {
    let n = 0;
    split.lengths.forEach((length, i) => {
      for (const [source, target] of found.get(length)!.splice(0, shareOf(split, i))) {
        pairs.push({ split: split.name, id: String(++n).padStart(3, '0'), source, target, length });
      }
    });
  }
  return pairs;
}

/** Writes one task file per pair at `<out>/<split>/<id>.json`, pointing at the graph folder by a relative path. */
export async function writePairFiles(out: string, pairs: readonly Pair[], graph: LinkGraph, graphFolder: string, header: GraphHeader): Promise<string[]> {
  const written: string[] = [];
  for (const pair of pairs) {
    const dir = join(out, pair.split);
    await mkdir(dir, { recursive: true });
    const task: PairTaskFile = {
      family: 'wikirace',
      id: `${pair.split}/${pair.id}`,
      split: pair.split,
      source: graph.titles[pair.source]!,
      target: graph.titles[pair.target]!,
      optimal_length: pair.length,
      graph: relative(dir, graphFolder).split('\\').join('/') || '.',
      graph_sha256: header.sha256,
      synthetic: header.synthetic,
    };
    const file = join(dir, `${pair.id}.json`);
    await writeFile(file, JSON.stringify(task, null, 2) + '\n');
    written.push(file);
  }
  return written;
}

/** Parses `easy=200,medium=150,hard=100` (counts per split, the paper's lengths kept). */
export function parseSplitCounts(text: string): SplitSpec[] {
  return text.split(',').map((part) => {
    const match = /^\s*(easy|medium|hard)\s*=\s*(\d+)\s*$/.exec(part);
    if (!match) throw new Error(`--splits: want name=count pairs like easy=200,medium=150,hard=100, got ${JSON.stringify(part)}`);
    const base = PAPER_SPLITS.find((s) => s.name === match[1])!;
    return { ...base, count: Number(match[2]) };
  });
}
