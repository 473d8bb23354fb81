import { mixSeeds, seededRandom } from '../../../common/random.js';
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
  /**
   * Share of pages that are minor (as Wikipedia's stubs): they come in runs along the ring of `minorRun`
   * pages on average, link only to their ring neighbours and one page nearby, and no other page links to
   * them but their ring neighbours. Their runs are the graph's far corners, where shortest paths of 7 and
   * 8 links end and start. Absent or 0: none (the example graph).
   */
  minorShare?: number;
  minorRun?: number;
}

/** The example graph's shape: about 1,500 pages whose shortest paths run from 1 to beyond 8 links. */
export const EXAMPLE_GRAPH: SyntheticGraphOptions = { pages: 1500, seed: 11, localLinks: 3, window: 6, farLinks: 1.5 };
/**
 * The paper's scale: 549,232 pages (its largest SCC; the paper gives no link count) and about 15.1 million links, with minor pages so that
 * shortest paths run from 1 to beyond 8 links as the paper's splits need (easy 3-4, medium 5-6, hard 7-8).
 */
export const PAPER_SCALE_GRAPH: SyntheticGraphOptions = { pages: 549_232, seed: 23, localLinks: 38, window: 40, farLinks: 10, minorShare: 0.3, minorRun: 2.5 };

/** Which pages are minor: runs of mean length `run` starting at random, covering about `share` of the ring. */
function minorPages(n: number, share: number, run: number, seed: number): Uint8Array {
  const minor = new Uint8Array(n);
  if (!(share > 0)) return minor;
  const random = seededRandom(seed);
  // Alternating major and minor stretches with exponential lengths, in the proportion share : 1 - share.
  const majorRun = (run * (1 - share)) / share;
  let page = 0;
  let isMinor = random() < share;
  while (page < n) {
    const drawn = Math.max(1, Math.round(-Math.log(1 - random()) * (isMinor ? run : majorRun)));
    // A minor run is at most 3 times its mean: the graph's far corners stay a few links deep.
    const length = isMinor ? Math.min(drawn, Math.ceil(3 * run)) : drawn;
    if (isMinor) minor.fill(1, page, Math.min(n, page + length));
    page += length;
    isMinor = !isMinor;
  }
  return minor;
}

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
  // Its own random stream, so a graph without minor pages draws exactly as before they existed.
  const minor = minorPages(n, options.minorShare ?? 0, options.minorRun ?? 1, mixSeeds(seed, 3));
  const offsets = new Uint32Array(n + 1);
  let targets = new Uint32Array(Math.ceil(n * (2 + localLinks + farLinks * 1.2)) + 64);
  const row = new Uint32Array(2 + localLinks + 64 * Math.ceil(farLinks + 1));
  const logSpan = Math.log(Math.max(2, n / 2 / window));
  let written = 0;
  /** No page: a draw that found only minor pages. */
  const minorNeighbour = -1;
  for (let page = 0; page < n; page++) {
    let size = 0;
    row[size++] = (page + 1) % n;
    row[size++] = (page + n - 1) % n;
    const locals = minor[page] ? 1 : localLinks;
    for (let k = 0; k < locals; k++) {
      let to = minorNeighbour;
      // A link that falls on a minor page is drawn again (a few times), so major pages keep their count.
      for (let attempt = 0; attempt < 4 && to === minorNeighbour; attempt++) {
        const step = 1 + Math.floor(random() * window);
        const drawn = (page + (random() < 0.5 ? step : n - step)) % n;
        if (!minor[drawn]) to = drawn;
      }
      if (to !== minorNeighbour) row[size++] = to;
    }
    // An exponential count: most pages get few far links, some get many (hubs). Minor pages get none.
    const far = minor[page] ? 0 : Math.min(row.length - size, Math.floor(-Math.log(1 - random()) * farLinks));
    for (let k = 0; k < far; k++) {
      let to = minorNeighbour;
      for (let attempt = 0; attempt < 4 && to === minorNeighbour; attempt++) {
        const distance = Math.floor(window * Math.exp(random() * logSpan));
        const drawn = (page + (random() < 0.5 ? distance : n - (distance % n))) % n;
        if (!minor[drawn]) to = drawn;
      }
      if (to !== minorNeighbour) row[size++] = to;
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
  `synthetic: aar small-world generator, seed ${o.seed}, ${o.pages} pages, ${o.localLinks} local links within ${o.window}, ${o.farLinks} far links on average` +
  (o.minorShare ? `, ${o.minorShare} of pages minor in runs of ${o.minorRun ?? 1}` : '');
