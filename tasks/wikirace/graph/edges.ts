import { LinkGraph } from './graph.js';

/** A growing list of [from, to] page pairs in two typed arrays (a dump's hundreds of millions of links fit, as objects would not). */
export class EdgeBuffer {
  from: Uint32Array = new Uint32Array(1024);
  to: Uint32Array = new Uint32Array(1024);
  length = 0;

  push(from: number, to: number): void {
    if (this.length === this.from.length) {
      const grow = (old: Uint32Array): Uint32Array => {
        const next = new Uint32Array(old.length * 2);
        next.set(old);
        return next;
      };
      this.from = grow(this.from);
      this.to = grow(this.to);
    }
    this.from[this.length] = from;
    this.to[this.length++] = to;
  }
}

/**
 * The CSR graph of `pageCount` pages from parallel from/to arrays (first `length` entries): a counting
 * sort by source, then each row sorted; duplicate links and self-links are dropped.
 */
export function csrFromEdges(titles: readonly string[], from: Uint32Array, to: Uint32Array, length = from.length): LinkGraph {
  const n = titles.length;
  const offsets = new Uint32Array(n + 1);
  for (let k = 0; k < length; k++) {
    if (from[k]! >= n || to[k]! >= n) throw new Error(`link graph: link ${from[k]} -> ${to[k]} outside 0..${n - 1}`);
    offsets[from[k]! + 1]!++;
  }
  for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
  const cursor = offsets.slice(0, n);
  const sorted = new Uint32Array(length);
  for (let k = 0; k < length; k++) sorted[cursor[from[k]!]!++] = to[k]!;
  // Sort each row, then squeeze out repeats and self-links in place.
  let write = 0;
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = offsets[i + 1]!;
    const row = sorted.subarray(start, end).sort();
    offsets[i] = write;
    let last = -1;
    for (let k = 0; k < row.length; k++) {
      const t = row[k]!;
      if (t !== last && t !== i) sorted[write++] = t;
      last = t;
    }
    start = end;
  }
  offsets[n] = write;
  return new LinkGraph(titles, offsets, write === length ? sorted : sorted.slice(0, write));
}

/** The pages where `keep` is set, renumbered in their old order, with the links among them. */
export function subgraph(graph: LinkGraph, keep: Uint8Array): LinkGraph {
  const n = graph.pageCount;
  const newIndex = new Int32Array(n).fill(-1);
  const titles: string[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) newIndex[i] = titles.push(graph.titles[i]!) - 1;
  const offsets = new Uint32Array(titles.length + 1);
  let links = 0;
  for (let i = 0; i < n; i++) {
    if (!keep[i]) continue;
    for (let k = graph.offsets[i]!; k < graph.offsets[i + 1]!; k++) if (keep[graph.targets[k]!]) links++;
  }
  const targets = new Uint32Array(links);
  let write = 0;
  for (let i = 0; i < n; i++) {
    if (!keep[i]) continue;
    // Renumbering keeps the old order, so each row stays sorted.
    for (let k = graph.offsets[i]!; k < graph.offsets[i + 1]!; k++) {
      const t = newIndex[graph.targets[k]!]!;
      if (t >= 0) targets[write++] = t;
    }
    offsets[newIndex[i]! + 1] = write;
  }
  return new LinkGraph(titles, offsets, targets);
}
