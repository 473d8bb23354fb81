import { mixSeeds, seededRandom, shuffleInPlace } from '../../../common/random.js';
import { UNREACHABLE } from './distances.js';
import type { LinkGraph } from './graph.js';

/** How many links a step offers, as the paper (appendix A: 50 options keep the easy split unsaturated). */
export const OFFERED_LINKS = 50;

/**
 * The links offered on `page` (paper, section 3 and algorithm 1): at most `limit` of its outgoing links,
 * those with the smallest distance to the target, presented in random order. `distances` are to the
 * target (`distancesTo`/`DistanceCache.to`); pages that cannot reach it count as farthest. The same seed
 * and page always offer the same list. A first shuffle picks which of several equally far links make the
 * cut; the links kept are then shuffled again, so every position holds each distance class as often as any
 * other and the distances cannot be read off the order (keeping the first shuffle's order would put the
 * links tied at the cutoff, which are taken from its front, near the front of the list).
 */
export function offeredLinks(graph: LinkGraph, distances: Int32Array, page: number, seed: number, limit = OFFERED_LINKS): number[] {
  const random = seededRandom(mixSeeds(seed, page));
  const links = shuffleInPlace(Array.from(graph.linksOf(page)), random);
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
  return shuffleInPlace(offered, random);
}
