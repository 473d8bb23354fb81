import type { LinkGraph } from './graph.js';

/** Marks a page from which the target cannot be reached. */
export const UNREACHABLE = -1;

/**
 * Links needed from every page to `target`: one breadth-first search over the reversed graph, with a
 * flat queue (no recursion, no per-page objects). `reversed` is `graph.reversed()`, built once per graph.
 */
export function distancesTo(reversed: LinkGraph, target: number): Int32Array {
  const n = reversed.pageCount;
  const distance = new Int32Array(n).fill(UNREACHABLE);
  const queue = new Uint32Array(n);
  let head = 0;
  let tail = 0;
  distance[target] = 0;
  queue[tail++] = target;
  const { offsets, targets } = reversed;
  while (head < tail) {
    const page = queue[head++]!;
    const next = distance[page]! + 1;
    for (let k = offsets[page]!; k < offsets[page + 1]!; k++) {
      const from = targets[k]!;
      if (distance[from] === UNREACHABLE) {
        distance[from] = next;
        queue[tail++] = from;
      }
    }
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
    const distances = distancesTo(this.reversedGraph, target);
    this.entries.set(target, distances);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return distances;
  }
}
