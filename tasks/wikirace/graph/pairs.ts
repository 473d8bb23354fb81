import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { mixSeeds, seededRandom } from '../../../common/random.js';
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
  max_moves?: number;
  max_links?: number;
}

const shareOf = (split: SplitSpec, i: number): number =>
  Math.floor(split.count / split.lengths.length) + (i < split.count % split.lengths.length ? 1 : 0);

/** How far a draw has got: sources searched, and pairs found and wanted per length. */
export interface PairProgress {
  sources: number;
  found: ReadonlyMap<number, number>;
  wanted: ReadonlyMap<number, number>;
}

export interface PairOptions {
  /** Sources searched at most (default: every page once). */
  maxSources?: number;
  /** Stop when this many sources in a row have no page at the length being filled (default 2,000). */
  patience?: number;
  /** Called now and then (every 25 sources) while searching. */
  onProgress?: (progress: PairProgress) => void;
}

/** The counts per length as a message shows them: `3: 100/100, ..., 8: 0/50`. */
export const pairCountsText = (p: PairProgress): string => [...p.wanted].map(([l, w]) => `${l}: ${p.found.get(l) ?? 0}/${w}`).join(', ');

/**
 * Source/target pairs by shortest-path length, as the paper draws them: each pair its own random source
 * (a page that has some page at the wanted distance), then a random target at exactly that distance (one
 * forward search per source). Sources are drawn without replacement in a seeded order and each gives
 * one pair only; a source drawn for one pair that has no page at its length waits for a later pair of
 * another length, in draw order, so every pair's source is the first draw that fits it (rejection
 * sampling with the searches shared). Same graph and seed, same pairs. When a length cannot be filled
 * (`patience` sources in a row without a page at it, or every page searched) it throws, with the counts.
 */
export function generatePairs(graph: LinkGraph, splits: readonly SplitSpec[], seed: number, options: PairOptions = {}): Pair[] {
  const random = seededRandom(mixSeeds(seed, 0x9a125));
  const wanted = new Map<number, number>();
  for (const split of splits) {
    split.lengths.forEach((length, i) => wanted.set(length, (wanted.get(length) ?? 0) + shareOf(split, i)));
  }
  const found = new Map<number, [number, number][]>([...wanted.keys()].map((l) => [l, []]));
  const progress = (): PairProgress => ({ sources: sources, found: new Map([...found].map(([l, f]) => [l, f.length])), wanted });
  const maxSources = Math.min(options.maxSources ?? graph.pageCount, graph.pageCount);
  const patience = options.patience ?? 2000;
  // Sources in a seeded order without repeats: a partial Fisher-Yates shuffle, one step per draw.
  const order = new Uint32Array(graph.pageCount).map((_, i) => i);
  const back = graph.reversed();
  const longest = Math.max(0, ...wanted.keys());
  let sources = 0;
  const draw = (): { source: number; targets: Map<number, number> } | undefined => {
    if (sources >= maxSources) return undefined;
    const j = sources + Math.floor(random() * (graph.pageCount - sources));
    const source = order[j]!;
    order[j] = order[sources]!;
    order[sources] = source;
    sources++;
    if (sources % 25 === 0) options.onProgress?.(progress());
    // searching forward links: links needed from `source` to each page
    return { source, targets: randomTargets(distancesTo(graph, source, back), wanted.keys(), longest, random) };
  };
  const waiting: { source: number; targets: Map<number, number> }[] = [];
  const fail = (length: number, why: string): never => {
    options.onProgress?.(progress());
    throw new Error(`pairs: cannot fill length ${length}: ${why}; found ${pairCountsText(progress())} (length: found/wanted) from ${sources} sources of ${graph.pageCount} pages (does the graph have shortest paths that long?)`);
  };
  for (const [length, count] of wanted) {
    while (found.get(length)!.length < count) {
      let at = waiting.findIndex((w) => w.targets.has(length));
      let misses = 0;
      while (at < 0) {
        const next = draw();
        if (!next) fail(length, sources >= graph.pageCount ? 'every page was searched as a source' : `the limit of ${maxSources} sources was reached`);
        if (next!.targets.size) waiting.push(next!);
        if (next!.targets.has(length)) at = waiting.length - 1;
        else if (++misses >= patience) fail(length, `${patience} sources in a row have no page at that distance`);
      }
      const [chosen] = waiting.splice(at, 1);
      found.get(length)!.push([chosen!.source, chosen!.targets.get(length)!]);
    }
  }
  options.onProgress?.(progress());
  return pairsOfSplits(splits, found);
}

/** A random page at each wanted length from a source (its distances `from`): count them, draw a rank per length, then find those pages. */
function randomTargets(from: ArrayLike<number>, lengths: Iterable<number>, longest: number, random: () => number): Map<number, number> {
  const counts = new Uint32Array(longest + 1);
  for (let page = 0; page < from.length; page++) if (from[page]! >= 0 && from[page]! <= longest) counts[from[page]!]!++;
  const rank = new Int32Array(longest + 1).fill(-1);
  for (const length of lengths) if (counts[length]) rank[length] = Math.floor(random() * counts[length]!);
  const targets = new Map<number, number>();
  for (let page = 0; page < from.length; page++) {
    const d = from[page]!;
    if (d >= 0 && d <= longest && rank[d]! >= 0 && rank[d]!-- === 0) targets.set(d, page);
  }
  return targets;
}

/** The pairs found, dealt to the splits in their order, each split's lengths in its order; ids numbered per split. */
function pairsOfSplits(splits: readonly SplitSpec[], found: Map<number, [number, number][]>): Pair[] {
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
export async function writePairFiles(
  out: string,
  pairs: readonly Pair[],
  graph: LinkGraph,
  graphFolder: string,
  header: GraphHeader,
  settings: Pick<PairTaskFile, 'max_moves' | 'max_links'> = {},
): Promise<string[]> {
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
      ...settings,
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
