/**
 * bench:wikirace-order: does the order of WikiRace's offered links say anything about their distance to the
 * target? Two measures, each for the order of today (tasks/wikirace/graph/options.ts) and for the order of
 * before issue 40 (the links tied at the cutoff taken from the front of one shuffle, kept in its order:
 * `tieCutOrder` below, kept here only as the reference of the leak):
 *
 * 1. One capped page: 40 links at distance 1, 40 at distance 2, 40 that cannot reach the target; over
 *    `--seeds` seeds (2,000), each distance class's mean position (0-based, of 50) and the share of lists
 *    whose last link is of that class, against a uniform order.
 * 2. The capped pages (more than 50 links) of a synthetic graph of the paper's shape (`--pages`, default the
 *    paper's 549,232): for `--targets` random targets, `--per-target` random capped pages each, how often the
 *    last link offered is among the nearest offered, against a uniform pick (the nearest's share of the list).
 */
import { loadavg } from 'node:os';
import { mixSeeds, seededRandom, shuffleInPlace } from '../common/random.js';
import { distancesTo, UNREACHABLE } from '../tasks/wikirace/graph/distances.js';
import { LinkGraph } from '../tasks/wikirace/graph/graph.js';
import { offeredLinks } from '../tasks/wikirace/graph/options.js';
import { PAPER_SCALE_GRAPH, syntheticGraph } from '../tasks/wikirace/graph/synthetic.js';

const argValue = (name: string, fallback: number): number => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const SEEDS = argValue('--seeds', 2000);
const PAGES = argValue('--pages', PAPER_SCALE_GRAPH.pages);
const TARGETS = argValue('--targets', 5);
const PER_TARGET = argValue('--per-target', 400);

type Offer = (graph: LinkGraph, distances: Int32Array, page: number, seed: number, limit?: number) => number[];

/** The order before issue 40: one shuffle decides the cut and the order, so the ties kept sit at its front. */
const tieCutOrder: Offer = (graph, distances, page, seed, limit = 50) => {
  const links = shuffleInPlace(Array.from(graph.linksOf(page)), seededRandom(mixSeeds(seed, page)));
  if (links.length <= limit) return links;
  const far = (p: number): number => (distances[p] === UNREACHABLE ? Number.MAX_SAFE_INTEGER : distances[p]!);
  const sorted = links.map(far).sort((a, b) => a - b);
  const cutoff = sorted[limit - 1]!;
  let tiesLeft = limit - sorted.filter((d) => d < cutoff).length;
  return links.filter((p) => far(p) < cutoff || (far(p) === cutoff && tiesLeft-- > 0));
};

const ORDERS: [string, Offer][] = [['before (tie-cut order kept)', tieCutOrder], ['after (kept links shuffled again)', offeredLinks]];
const f = (x: number, digits = 1): string => x.toFixed(digits);

console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);

// 1. The crafted page: page 0 links to 1..120; i % 3 == 0 reach the target 121 in 1, == 1 in 2 (through 122), == 2 never.
{
  const titles = Array.from({ length: 123 }, (_, i) => `Page ${i}`);
  const edges: [number, number][] = [[122, 121]];
  for (let i = 1; i <= 120; i++) {
    edges.push([0, i]);
    if (i % 3 === 0) edges.push([i, 121]);
    if (i % 3 === 1) edges.push([i, 122]);
  }
  const graph = LinkGraph.fromEdges(titles, edges);
  const distances = distancesTo(graph.reversed(), 121);
  console.log(`\n== one capped page: 40 links at distance 1, 40 at 2, 40 unreachable; 50 offered; ${SEEDS} seeds ==`);
  console.log('| order | class | links offered | mean position (uniform 24.5) | P(last) | P(last) uniform |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, offer] of ORDERS) {
    const byClass = new Map<number, { positions: number; count: number; last: number }>();
    for (let seed = 0; seed < SEEDS; seed++) {
      const offered = offer(graph, distances, 0, seed);
      offered.forEach((p, i) => {
        const c = byClass.get(distances[p]!) ?? { positions: 0, count: 0, last: 0 };
        c.positions += i;
        c.count++;
        if (i === offered.length - 1) c.last++;
        byClass.set(distances[p]!, c);
      });
    }
    for (const [d, c] of [...byClass].sort((a, b) => a[0] - b[0])) {
      const perList = c.count / SEEDS;
      console.log(`| ${name} | distance ${d} | ${f(perList, 0)} | ${f(c.positions / c.count)} | ${f((100 * c.last) / SEEDS)}% | ${f((100 * perList) / 50)}% |`);
    }
  }
}

// 2. Capped pages of a graph of the paper's shape.
{
  const started = performance.now();
  const graph = syntheticGraph({ ...PAPER_SCALE_GRAPH, pages: PAGES });
  const back = graph.reversed();
  const capped: number[] = [];
  for (let p = 0; p < graph.pageCount; p++) if (graph.linksOf(p).length > 50) capped.push(p);
  console.log(`\n== capped pages of the paper-shaped synthetic graph: ${graph.pageCount} pages, ${graph.linkCount} links, ${capped.length} pages with more than 50 links (${f((performance.now() - started) / 1000)} s to build) ==`);
  const random = seededRandom(40);
  const rows = ORDERS.map(([name]) => ({ name, pages: 0, lastNearest: 0, uniform: 0, lastPosition: 0 }));
  for (let t = 0; t < TARGETS; t++) {
    const target = Math.floor(random() * graph.pageCount);
    const distances = distancesTo(back, target);
    for (let k = 0; k < PER_TARGET; k++) {
      const page = capped[Math.floor(random() * capped.length)]!;
      if (page === target) continue;
      const seed = Math.floor(random() * 2 ** 32);
      ORDERS.forEach(([, offer], i) => {
        const offered = offer(graph, distances, page, seed);
        const nearest = Math.min(...offered.map((p) => distances[p]!));
        const r = rows[i]!;
        r.pages++;
        if (distances[offered.at(-1)!] === nearest) r.lastNearest++;
        r.uniform += offered.filter((p) => distances[p] === nearest).length / offered.length;
      });
    }
  }
  console.log(`| order | capped pages sampled (${TARGETS} targets) | last link among the nearest offered | uniform pick |`);
  console.log('|---|---|---|---|');
  for (const r of rows) console.log(`| ${r.name} | ${r.pages} | ${f((100 * r.lastNearest) / r.pages)}% | ${f((100 * r.uniform) / r.pages)}% |`);
}
