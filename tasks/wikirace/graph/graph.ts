/**
 * A directed link graph in compressed sparse row form, as LLM-WikiRace stores Wikipedia: page i's
 * outgoing links are `targets[offsets[i] .. offsets[i+1])`, sorted ascending; pages are numbered 0..n-1
 * and named by `titles` (as Wikipedia writes them, underscores as spaces).
 */
export class LinkGraph {
  readonly pageCount: number;
  readonly linkCount: number;
  private titleIndex: Map<string, number> | undefined;

  constructor(
    readonly titles: readonly string[],
    /** n+1 offsets into `targets`. */
    readonly offsets: Uint32Array,
    readonly targets: Uint32Array,
  ) {
    if (offsets.length !== titles.length + 1) throw new Error(`link graph: ${offsets.length} offsets for ${titles.length} pages (want n+1)`);
    if (offsets[titles.length] !== targets.length) throw new Error(`link graph: last offset ${offsets[titles.length]} but ${targets.length} links`);
    this.pageCount = titles.length;
    this.linkCount = targets.length;
  }

  /** Builds the graph from page titles and [from, to] index pairs; duplicate links and self-links are dropped. */
  static fromEdges(titles: readonly string[], edges: Iterable<readonly [number, number]>): LinkGraph {
    const n = titles.length;
    const lists: number[][] = Array.from({ length: n }, () => []);
    for (const [from, to] of edges) {
      if (!(from >= 0 && from < n && to >= 0 && to < n)) throw new Error(`link graph: link ${from} -> ${to} outside 0..${n - 1}`);
      if (from !== to) lists[from]!.push(to);
    }
    const offsets = new Uint32Array(n + 1);
    const flat: number[] = [];
    for (let i = 0; i < n; i++) {
      const sorted = [...new Set(lists[i])].sort((a, b) => a - b);
      for (const t of sorted) flat.push(t);
      offsets[i + 1] = flat.length;
    }
    return new LinkGraph(titles, offsets, Uint32Array.from(flat));
  }

  /** The pages `page` links to, ascending (a view, not a copy). */
  linksOf(page: number): Uint32Array {
    return this.targets.subarray(this.offsets[page]!, this.offsets[page + 1]!);
  }

  hasLink(from: number, to: number): boolean {
    const links = this.linksOf(from);
    let lo = 0;
    let hi = links.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (links[mid]! < to) lo = mid + 1;
      else hi = mid;
    }
    return lo < links.length && links[lo] === to;
  }

  /** The page of this title, or undefined. */
  pageOf(title: string): number | undefined {
    if (!this.titleIndex) {
      this.titleIndex = new Map();
      this.titles.forEach((t, i) => this.titleIndex!.set(t, i));
    }
    return this.titleIndex.get(title);
  }

  /** The same pages with every link reversed (what a search backwards from a target walks). */
  reversed(): LinkGraph {
    const n = this.pageCount;
    const counts = new Uint32Array(n + 1);
    for (let i = 0; i < this.targets.length; i++) counts[this.targets[i]! + 1]!++;
    for (let i = 0; i < n; i++) counts[i + 1]! += counts[i]!;
    const offsets = counts.slice();
    const cursor = counts.slice(0, n);
    const targets = new Uint32Array(this.targets.length);
    for (let from = 0; from < n; from++) {
      for (let k = this.offsets[from]!; k < this.offsets[from + 1]!; k++) targets[cursor[this.targets[k]!]!++] = from;
    }
    return new LinkGraph(this.titles, offsets, targets);
  }
}
