import type { LinkGraph } from './graph.js';

/** Marks a page from which the target cannot be reached. */
export const UNREACHABLE = -1;

/**
 * Links needed from every page to `target`: one breadth-first search over the reversed graph, with a
 * flat queue (no recursion, no per-page objects). `reversed` is `graph.reversed()`, built once per graph.
 * Given the forward graph too, the search is direction-optimizing (Beamer et al.): when the frontier
 * grows large, as it does after two or three levels of a small-world graph, each page not yet reached
 * checks its own links for one into the frontier instead of the frontier expanding every link, which
 * skips most of the links of the middle levels.
 */
export function distancesTo(reversed: LinkGraph, target: number, forward?: LinkGraph): Int32Array {
  const n = reversed.pageCount;
  const distance = new Int32Array(n).fill(UNREACHABLE);
  const queue = new Uint32Array(n);
  let head = 0;
  let tail = 0;
  distance[target] = 0;
  queue[tail++] = target;
  const { offsets, targets } = reversed;
  let unexploredLinks = reversed.linkCount - (offsets[target + 1]! - offsets[target]!);
  let level = 0;
  while (head < tail) {
    const levelEnd = tail;
    let frontierLinks = 0;
    for (let k = head; k < levelEnd; k++) frontierLinks += offsets[queue[k]! + 1]! - offsets[queue[k]!]!;
    const next = level + 1;
    if (forward && frontierLinks > unexploredLinks / 14 && levelEnd - head > n / 64) {
      // Bottom-up: every page not yet reached looks for a link into this level.
      const fo = forward.offsets;
      const ft = forward.targets;
      for (let page = 0; page < n; page++) {
        if (distance[page] !== UNREACHABLE) continue;
        for (let k = fo[page]!; k < fo[page + 1]!; k++) {
          if (distance[ft[k]!] === level) {
            distance[page] = next;
            queue[tail++] = page;
            unexploredLinks -= offsets[page + 1]! - offsets[page]!;
            break;
          }
        }
      }
      head = levelEnd;
    } else {
      while (head < levelEnd) {
        const page = queue[head++]!;
        for (let k = offsets[page]!; k < offsets[page + 1]!; k++) {
          const from = targets[k]!;
          if (distance[from] === UNREACHABLE) {
            distance[from] = next;
            queue[tail++] = from;
            unexploredLinks -= offsets[from + 1]! - offsets[from]!;
          }
        }
      }
    }
    level = next;
  }
  return distance;
}

/**
 * Distances to recently used targets, newest kept: a game asks for the same target every step, and a
 * job plays each target several times.
 */
export class DistanceCache {
  private readonly entries = new Map<number, Int32Array>();
  private reversedGraph: LinkGraph | undefined;

  constructor(
    private readonly graph: LinkGraph,
    private readonly capacity = 16,
  ) {}

  to(target: number): Int32Array {
    const hit = this.entries.get(target);
    if (hit) {
      this.entries.delete(target);
      this.entries.set(target, hit);
      return hit;
    }
    this.reversedGraph ??= this.graph.reversed();
    const distances = distancesTo(this.reversedGraph, target, this.graph);
    this.entries.set(target, distances);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return distances;
  }
}
