import { mixSeeds, seededRandom } from '../../random.js';
import { LinkGraph } from './graph.js';
import { syntheticTitles } from './synthetic-titles.js';

export interface SyntheticGraphOptions {
  pages: number;
  seed: number;
  /** Links per page to pages nearby (within `window` places on the ring). */
  localLinks: number;
  window: number;
  /** Mean number of far links per page; each page draws its own count, so some pages are hubs and many have none. */
  farLinks: number;
}

/** The example graph's shape: about 1,500 pages whose shortest paths run from 1 to beyond 8 links. */
export const EXAMPLE_GRAPH: SyntheticGraphOptions = { pages: 1500, seed: 11, localLinks: 3, window: 6, farLinks: 1.5 };
/** The paper's scale: 549,232 pages (its largest SCC) and about 15.3 million links. */
export const PAPER_SCALE_GRAPH: SyntheticGraphOptions = { pages: 549_232, seed: 23, localLinks: 24, window: 40, farLinks: 6 };

/**
 * A deterministic, strongly connected link graph built straight into CSR arrays (no edge list): pages
 * sit on a ring, each links to both ring neighbours (so every page reaches every other), to a few
 * random pages nearby, and to far pages at log-uniform ring distances (a small world in Kleinberg's
 * sense: short paths exist but take some finding). Far links cluster on hub pages. Titles read like
 * page names and neighbouring pages share a topic word.
 */
export function syntheticGraph(options: SyntheticGraphOptions): LinkGraph {
  const { pages: n, seed, localLinks, window, farLinks } = options;
  if (n < 3) throw new Error(`synthetic graph: want at least 3 pages, got ${n}`);
  const random = seededRandom(mixSeeds(seed, 1));
  const offsets = new Uint32Array(n + 1);
  let targets = new Uint32Array(Math.ceil(n * (2 + localLinks + farLinks * 1.2)) + 64);
  const row = new Uint32Array(2 + localLinks + 64 * Math.ceil(farLinks + 1));
  const logSpan = Math.log(Math.max(2, n / 2 / window));
  let written = 0;
  for (let page = 0; page < n; page++) {
    let size = 0;
    row[size++] = (page + 1) % n;
    row[size++] = (page + n - 1) % n;
    for (let k = 0; k < localLinks; k++) {
      const step = 1 + Math.floor(random() * window);
      row[size++] = (page + (random() < 0.5 ? step : n - step)) % n;
    }
    // An exponential count: most pages get few far links, some get many (hubs).
    const far = Math.min(row.length - size, Math.floor(-Math.log(1 - random()) * farLinks));
    for (let k = 0; k < far; k++) {
      const distance = Math.floor(window * Math.exp(random() * logSpan));
      row[size++] = (page + (random() < 0.5 ? distance : n - (distance % n))) % n;
    }
    const sorted = row.subarray(0, size).sort();
    if (written + size > targets.length) {
      const grown = new Uint32Array(Math.ceil(targets.length * 1.25) + size);
      grown.set(targets.subarray(0, written));
      targets = grown;
    }
    let last = -1;
    for (let k = 0; k < size; k++) {
      const t = sorted[k]!;
      if (t !== last && t !== page) targets[written++] = t;
      last = t;
    }
    offsets[page + 1] = written;
  }
  return new LinkGraph(syntheticTitles(n, mixSeeds(seed, 2)), offsets, targets.slice(0, written));
}

export const syntheticSource = (o: SyntheticGraphOptions): string =>
  `synthetic: aar small-world generator, seed ${o.seed}, ${o.pages} pages, ${o.localLinks} local links within ${o.window}, ${o.farLinks} far links on average`;
