import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { csrFromEdges, EdgeBuffer } from './edges.js';
import type { LinkGraph } from './graph.js';
import { largestComponent } from './scc.js';

export interface EdgeListStats {
  pages: number;
  links: number;
  sccPages: number;
  sccLinks: number;
}

/**
 * A graph from a TSV edge list: one link per line, `from title<TAB>to title`, read as a stream (gzip
 * when the name ends in .gz). Blank lines and lines starting with # are skipped; titles are taken as
 * written. The largest strongly connected component is kept, as for a dump.
 */
export async function buildFromEdgeList(file: string): Promise<{ graph: LinkGraph; stats: EdgeListStats }> {
  const pageOf = new Map<string, number>();
  const titles: string[] = [];
  const page = (title: string): number => {
    let p = pageOf.get(title);
    if (p === undefined) {
      p = titles.push(title) - 1;
      pageOf.set(title, p);
    }
    return p;
  };
  const edges = new EdgeBuffer();
  const raw = createReadStream(file);
  const lines = createInterface({ input: file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw, crlfDelay: Infinity });
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber++;
      if (line === '' || line.startsWith('#')) continue;
      const parts = line.split('\t');
      if (parts.length !== 2 || parts[0] === '' || parts[1] === '') {
        throw new Error(`${file}:${lineNumber}: want two titles separated by one tab, got ${JSON.stringify(line.slice(0, 80))}`);
      }
      edges.push(page(parts[0]!), page(parts[1]!));
    }
  } catch (error) {
    const message = (error as Error).message;
    throw new Error(message.startsWith(file) ? message : `${file}: cannot read (${(error as NodeJS.ErrnoException).code ?? message})`);
  }
  if (edges.length === 0) throw new Error(`${file}: no links`);
  pageOf.clear();
  const full = csrFromEdges(titles, edges.from, edges.to, edges.length);
  const graph = largestComponent(full);
  return { graph, stats: { pages: full.pageCount, links: full.linkCount, sccPages: graph.pageCount, sccLinks: graph.linkCount } };
}
