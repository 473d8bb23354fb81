import type { LinkGraph } from './graph.js';
import { subgraph } from './edges.js';

/**
 * Strongly connected components by Tarjan's algorithm, iterative (an explicit stack of pages and link
 * cursors: Wikipedia's paths are far deeper than the call stack). Returns each page's component number.
 */
export function stronglyConnectedComponents(graph: LinkGraph): { component: Uint32Array; count: number } {
  const n = graph.pageCount;
  const { offsets, targets } = graph;
  const NONE = 0xffffffff;
  const index = new Uint32Array(n).fill(NONE);
  const low = new Uint32Array(n);
  const component = new Uint32Array(n).fill(NONE);
  const stack = new Uint32Array(n);
  const callPage = new Uint32Array(n);
  const callCursor = new Uint32Array(n);
  let stackTop = 0;
  let nextIndex = 0;
  let count = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== NONE) continue;
    let depth = 0;
    callPage[0] = root;
    callCursor[0] = offsets[root]!;
    index[root] = low[root] = nextIndex++;
    stack[stackTop++] = root;
    while (depth >= 0) {
      const page = callPage[depth]!;
      const cursor = callCursor[depth]!;
      if (cursor < offsets[page + 1]!) {
        callCursor[depth] = cursor + 1;
        const next = targets[cursor]!;
        if (index[next] === NONE) {
          index[next] = low[next] = nextIndex++;
          stack[stackTop++] = next;
          callPage[++depth] = next;
          callCursor[depth] = offsets[next]!;
        } else if (component[next] === NONE && index[next]! < low[page]!) {
          low[page] = index[next]!; // still on the stack: part of the component being formed
        }
        continue;
      }
      if (low[page] === index[page]) {
        let member: number;
        do {
          member = stack[--stackTop]!;
          component[member] = count;
        } while (member !== page);
        count++;
      }
      depth--;
      if (depth >= 0) {
        const parent = callPage[depth]!;
        if (low[page]! < low[parent]!) low[parent] = low[page]!;
      }
    }
  }
  return { component, count };
}

/** The largest strongly connected component as its own graph (ties: the one holding the lowest page). */
export function largestComponent(graph: LinkGraph): LinkGraph {
  const { component, count } = stronglyConnectedComponents(graph);
  const sizes = new Uint32Array(count);
  for (let i = 0; i < graph.pageCount; i++) sizes[component[i]!]!++;
  let best = 0;
  let bestPage = Infinity;
  const firstPage = new Float64Array(count).fill(Infinity);
  for (let i = graph.pageCount - 1; i >= 0; i--) firstPage[component[i]!] = i;
  for (let c = 0; c < count; c++) {
    if (sizes[c]! > sizes[best]! || (sizes[c] === sizes[best] && firstPage[c]! < bestPage)) {
      best = c;
      bestPage = firstPage[c]!;
    }
  }
  const keep = new Uint8Array(graph.pageCount);
  for (let i = 0; i < graph.pageCount; i++) keep[i] = component[i] === best ? 1 : 0;
  return subgraph(graph, keep);
}
