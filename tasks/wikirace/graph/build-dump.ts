import { BigMap } from './big-map.js';
import { csrFromEdges, EdgeBuffer } from './edges.js';
import type { LinkGraph } from './graph.js';
import { largestComponent } from './scc.js';
import { forEachDumpRow, type SqlValue } from './sql-dump.js';

/** The four tables of a Wikipedia SQL dump the graph needs (files like enwiki-20250620-page.sql.gz). */
export interface DumpFiles {
  page: string;
  pagelinks: string;
  linktarget: string;
  redirect: string;
}

export interface BuildStats {
  /** Main-namespace articles (redirect pages not counted). */
  pages: number;
  /** Main-namespace redirect pages. */
  redirects: number;
  /** Links before the component cut, after redirects resolved, repeats and self-links dropped. */
  links: number;
  /** Links whose target was a redirect, sent on to the redirect's target. */
  linksThroughRedirects: number;
  /** Links dropped: to another namespace, to a missing page, or through a broken redirect. */
  linksDropped: number;
  /** Pages and links of the largest strongly connected component (the graph kept). */
  sccPages: number;
  sccLinks: number;
}

const MAIN = 0;
const MAX_REDIRECT_HOPS = 8;

/** Wikipedia stores titles with underscores; it shows them with spaces. */
export const displayTitle = (stored: string): string => stored.replace(/_/g, ' ');

/** Where each needed column sits in the current table layouts, for a dump without its CREATE TABLE. */
const DEFAULT_POSITION: Record<string, number> = {
  page_id: 0, page_namespace: 1, page_title: 2, page_is_redirect: 3,
  rd_from: 0, rd_namespace: 1, rd_title: 2, rd_interwiki: 3,
  lt_id: 0, lt_namespace: 1, lt_title: 2,
  pl_from: 0, pl_from_namespace: 1, pl_target_id: 2,
};

function field(row: SqlValue[], columns: readonly string[], name: string, file: string, kind: 'number' | 'string'): number | string {
  const i = columns.length > 0 ? columns.indexOf(name) : DEFAULT_POSITION[name]!;
  if (i < 0) throw new Error(`${file}: the table has no column ${name} (columns: ${columns.join(', ')})`);
  const value = row[i];
  if (kind === 'number' ? typeof value !== 'number' : typeof value !== 'string' && typeof value !== 'number') {
    throw new Error(`${file}: column ${name} (position ${i + 1}) is ${value === undefined ? 'missing' : JSON.stringify(value)}, want a ${kind}`);
  }
  return kind === 'string' ? String(value) : (value as number);
}

/**
 * The main-namespace link graph of a Wikipedia dump, redirects resolved, largest strongly connected
 * component kept. Each table streams past once; what stays in memory is one entry per main-namespace
 * page and link target, and the links as two Uint32Arrays.
 */
export async function buildFromDumps(files: DumpFiles, log: (line: string) => void = () => {}): Promise<{ graph: LinkGraph; stats: BuildStats }> {
  const pages = await readPages(files.page);
  log(`page: ${pages.title.length} main-namespace pages`);
  const redirectTo = await readRedirects(files.redirect, pages);
  const { article, titles, resolve } = numberArticles(pages, redirectTo);
  log(`redirect: ${redirectTo.size} main-namespace redirects with a known target`);
  const targetOfLinkId = await readLinkTargets(files.linktarget, pages, resolve);
  pages.ofTitle.clear();
  log(`linktarget: ${targetOfLinkId.size} targets in the main namespace`);
  const { edges, linksThroughRedirects, linksDropped } = await readPageLinks(files.pagelinks, pages, article, targetOfLinkId);
  log(`pagelinks: ${edges.length} main-namespace links`);

  const full = csrFromEdges(titles, edges.from, edges.to, edges.length);
  const graph = largestComponent(full);
  return {
    graph,
    stats: { pages: titles.length, redirects: pages.title.length - titles.length, links: full.linkCount, linksThroughRedirects, linksDropped, sccPages: graph.pageCount, sccLinks: graph.linkCount },
  };
}

/** The main-namespace pages of the page table, articles and redirects, by slot (dump order). */
interface PageSlots {
  ofPageId: BigMap<number, number>;
  ofTitle: BigMap<string, number>;
  title: string[];
  isRedirect: boolean[];
}

/** page: page_id, page_namespace, page_title, page_is_redirect, ... */
async function readPages(file: string): Promise<PageSlots> {
  const pages: PageSlots = { ofPageId: new BigMap(), ofTitle: new BigMap(), title: [], isRedirect: [] };
  await forEachDumpRow(file, 'page', (row, columns) => {
    if (field(row, columns, 'page_namespace', file, 'number') !== MAIN) return;
    const id = field(row, columns, 'page_id', file, 'number') as number;
    const title = field(row, columns, 'page_title', file, 'string') as string;
    const slot = pages.title.push(title) - 1;
    pages.isRedirect.push(field(row, columns, 'page_is_redirect', file, 'number') === 1);
    pages.ofPageId.set(id, slot);
    pages.ofTitle.set(title, slot);
  });
  return pages;
}

/** redirect: rd_from, rd_namespace, rd_title, rd_interwiki, rd_fragment. The slot each main-namespace redirect leads to. */
async function readRedirects(file: string, pages: PageSlots): Promise<BigMap<number, number>> {
  const redirectTo = new BigMap<number, number>();
  await forEachDumpRow(file, 'redirect', (row, columns) => {
    const from = pages.ofPageId.get(field(row, columns, 'rd_from', file, 'number') as number);
    if (from === undefined || field(row, columns, 'rd_namespace', file, 'number') !== MAIN) return;
    const interwiki = row[columns.length > 0 ? columns.indexOf('rd_interwiki') : 3];
    if (typeof interwiki === 'string' && interwiki !== '') return; // to another wiki
    const to = pages.ofTitle.get(field(row, columns, 'rd_title', file, 'string') as string);
    if (to !== undefined) redirectTo.set(from, to);
  });
  return redirectTo;
}

/** Articles are the pages that are not redirects, numbered in dump (page_id) order; `resolve` follows a slot's redirects to its article (-1: none). */
function numberArticles(pages: PageSlots, redirectTo: BigMap<number, number>): { article: Int32Array; titles: string[]; resolve: (slot: number) => number } {
  const article = new Int32Array(pages.title.length).fill(-1);
  const titles: string[] = [];
  for (let slot = 0; slot < pages.title.length; slot++) if (!pages.isRedirect[slot]) article[slot] = titles.push(displayTitle(pages.title[slot]!)) - 1;
  const resolve = (slot: number): number => {
    for (let hop = 0; hop <= MAX_REDIRECT_HOPS; hop++) {
      if (!pages.isRedirect[slot]) return article[slot]!;
      const next = redirectTo.get(slot);
      if (next === undefined) return -1;
      slot = next;
    }
    return -1; // a redirect loop or a chain too long
  };
  return { article, titles, resolve };
}

/** A link target reached through a redirect is marked by this high bit. */
const THROUGH_REDIRECT = 0x80000000;

/** linktarget: lt_id, lt_namespace, lt_title. The article each main-namespace target leads to. */
async function readLinkTargets(file: string, pages: PageSlots, resolve: (slot: number) => number): Promise<BigMap<number, number>> {
  const targetOfLinkId = new BigMap<number, number>();
  await forEachDumpRow(file, 'linktarget', (row, columns) => {
    if (field(row, columns, 'lt_namespace', file, 'number') !== MAIN) return;
    const slot = pages.ofTitle.get(field(row, columns, 'lt_title', file, 'string') as string);
    if (slot === undefined) return;
    const to = resolve(slot);
    if (to >= 0) targetOfLinkId.set(field(row, columns, 'lt_id', file, 'number') as number, pages.isRedirect[slot] ? (to | THROUGH_REDIRECT) >>> 0 : to);
  });
  return targetOfLinkId;
}

/** pagelinks: pl_from, pl_from_namespace, pl_target_id. The links between articles, and how many went through a redirect or were dropped. */
async function readPageLinks(file: string, pages: PageSlots, article: Int32Array, targetOfLinkId: BigMap<number, number>) {
  const edges = new EdgeBuffer();
  let linksThroughRedirects = 0;
  let linksDropped = 0;
  await forEachDumpRow(file, 'pagelinks', (row, columns) => {
    if (field(row, columns, 'pl_from_namespace', file, 'number') !== MAIN) return;
    const fromSlot = pages.ofPageId.get(field(row, columns, 'pl_from', file, 'number') as number);
    if (fromSlot === undefined || pages.isRedirect[fromSlot]) return; // a redirect page's own link is the redirect
    const target = targetOfLinkId.get(field(row, columns, 'pl_target_id', file, 'number') as number);
    if (target === undefined) {
      linksDropped++;
      return;
    }
    if (target & THROUGH_REDIRECT) linksThroughRedirects++;
    edges.push(article[fromSlot]!, (target & ~THROUGH_REDIRECT) >>> 0);
  });
  return { edges, linksThroughRedirects, linksDropped };
}
