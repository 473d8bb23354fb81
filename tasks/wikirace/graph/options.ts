import { mixSeeds, seededRandom, shuffleInPlace } from '../../../common/random.js';
import { UNREACHABLE } from './distances.js';
import type { LinkGraph } from './graph.js';

/** How many links a step offers, as the paper (appendix A: 50 options keep the easy split unsaturated). */
export const OFFERED_LINKS = 50;

/**
 * The links offered on `page` (paper, section 3 and algorithm 1): at most `limit` of its outgoing links,
 * those with the smallest distance to the target, in a seeded random order. `distances` are to the target
 * (`distancesTo`/`DistanceCache.to`); pages that cannot reach it count as farthest. One shuffle decides
 * both the order shown and which of several equally far links make the cut, so the same seed and page
 * always offer the same list, and the distances cannot be read off the order.
 */
export function offeredLinks(graph: LinkGraph, distances: Int32Array, page: number, seed: number, limit = OFFERED_LINKS): number[] {
  const links = shuffleInPlace(Array.from(graph.linksOf(page)), seededRandom(mixSeeds(seed, page)));
  if (links.length <= limit) return links;
  const far = (p: number): number => (distances[p] === UNREACHABLE ? Number.MAX_SAFE_INTEGER : distances[p]!);
  // The distance of the limit-th nearest link: every nearer link is kept, and ties at it fill up in
  // shuffled order. Distances are few small numbers, so counting them beats sorting a hub's thousands.
  const counts = new Map<number, number>();
  for (const p of links) counts.set(far(p), (counts.get(far(p)) ?? 0) + 1);
  let cutoff = 0;
  let nearer = 0;
  for (const d of [...counts.keys()].sort((a, b) => a - b)) {
    cutoff = d;
    if (nearer + counts.get(d)! >= limit) break;
    nearer += counts.get(d)!;
  }
  let tiesLeft = limit - nearer;
  const offered: number[] = [];
  for (const p of links) {
    const d = far(p);
    if (d < cutoff || (d === cutoff && tiesLeft-- > 0)) offered.push(p);
  }
  return offered;
}
