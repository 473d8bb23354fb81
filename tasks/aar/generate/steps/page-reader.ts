import { parseWikipediaUrl, wikipediaArticleUrl } from '../../../../tools/catalog/web-page.js';
import { canonicalUrl } from '../../../../tools/store/canonical.js';
import type { PageInfo, PageLink } from '../draft.js';

/**
 * A fetch_webpage answer for a Wikipedia article read into a PageInfo: title, infobox rows (the first
 * table's two-cell rows), the first paragraph and what it says the page is, sections with their text and
 * list items, and the links to other articles. It reads the Markdown our fetch_webpage makes of the
 * MediaWiki HTML, live or from a store.
 */

const LINK = /\[([^\]]*)\]\((\S+?)(?:\s+"[^"]*")?\)/g;

/** Markdown as plain text: links as their text, emphasis and citation marks dropped, spaces collapsed. */
export function plainText(markdown: string): string {
  return markdown
    .replace(LINK, '$1')
    .replace(/\[(?:\d+|note \d+|citation needed)\]/gi, '')
    .replace(/(\*\*|__|\*|_)(?=\S)([^*_]*?\S)\1/g, '$2')
    .replace(/\\([|*_[\]()])/g, '$1')
    .replace(/[\s\u00a0]+/g, ' ')
    .trim();
}

/** Article links in a piece of Markdown (canonical URLs), main namespace only. */
export function articleLinks(markdown: string, host?: string): PageLink[] {
  const out: PageLink[] = [];
  for (const m of markdown.matchAll(LINK)) {
    const page = parseWikipediaUrl(m[2]!);
    if (!page || page.fragment || /^[A-Za-z ]+:/.test(page.title)) continue;
    if (host && !m[2]!.includes(host)) continue;
    out.push({ text: plainText(m[1]!), url: canonicalUrl(wikipediaArticleUrl({ lang: page.lang, title: page.title })) });
  }
  return out;
}

const splitRow = (line: string): string[] => line.trim().replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/).map((c) => c.trim());

/** What the page is, from its first sentence: "X is a lakeside town ..." -> "a lakeside town ...". */
export function describeFromIntro(intro: string): string {
  const first = intro.split(/(?<=[.!?])\s+(?=[A-Z])/)[0] ?? '';
  const m = /\b(?:is|was|are|were)\s+(.+?)[.]?$/i.exec(first);
  return m ? m[1]!.replace(/\s*\([^)]*\)/g, '').trim() : '';
}

export function readPage(url: string, text: string, depth: number): PageInfo {
  const lines = text.split('\n');
  const title = /^# (.+)$/.exec(lines[0] ?? '')?.[1]?.trim() ?? (parseWikipediaUrl(url)?.title ?? url);
  const self = canonicalUrl(url);
  const body = lines.slice(1).filter((l) => !/^(Source|Language editions): /.test(l));
  const infobox: PageInfo['infobox'] = [];
  const sections: PageInfo['sections'] = [];
  let intro = '';
  let current: PageInfo['sections'][number] | undefined;
  let tableSeen = false;
  let i = 0;
  while (i < body.length) {
    const line = body[i]!;
    if (line.startsWith('|')) {
      const rows: string[][] = [];
      for (; i < body.length && body[i]!.startsWith('|'); i++) rows.push(splitRow(body[i]!));
      if (!tableSeen && !current) {
        for (const cells of rows) {
          if (cells.length < 2 || !cells[0] || !cells[1] || /^-+$/.test(cells[0])) continue;
          infobox.push({ key: plainText(cells[0]), value: plainText(cells[1]), links: articleLinks(cells[1]).map((l) => l.url) });
        }
      }
      tableSeen = true;
      continue;
    }
    const heading = /^#{2,3}\s+(.+)$/.exec(line);
    if (heading) sections.push((current = { heading: plainText(heading[1]!), text: '', items: [] }));
    else if (/^\s*(?:[-*+]|\d+\.)\s+/.test(line)) current?.items.push(plainText(line.replace(/^\s*(?:[-*+]|\d+\.)\s+/, '')));
    else if (line.trim() && !line.startsWith('>') && !/^\*[^*].*\*$/.test(line.trim())) {
      if (current) current.text = `${current.text} ${plainText(line)}`.trim();
      else if (!intro) intro = plainText(line);
    }
    i++;
  }
  const host = new URL(self).host;
  const links = articleLinks(body.join('\n'), host).filter((l, n, all) => l.url !== self && all.findIndex((x) => x.url === l.url) === n);
  return { url: self, title, intro, description: describeFromIntro(intro), infobox, links, sections, depth, text };
}
