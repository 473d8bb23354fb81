import { formatPage } from '../../../../tools/catalog/web-page.js';
import { htmlToMarkdown } from '../../../../tools/providers/html-markdown.js';
import { canonicalUrl } from '../../../../tools/store/canonical.js';
import type { World, WorldPage } from './schema.js';

/**
 * A described world's pages as fetch_webpage gives a Wikipedia article: the page is written as the
 * MediaWiki parse API's HTML (an infobox table, paragraphs, headings, lists, links) and converted by the
 * same HTML-to-Markdown step as a live page, so what the crawl reads here is what it reads live.
 */

export const pageUrl = (world: World, title: string): string => canonicalUrl(`${world.wiki}${title.replace(/ /g, '_')}`);

const escapeHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** Escaped text, with MediaWiki's `'''bold'''` kept as bold. */
const textHtml = (text: string): string => escapeHtml(text).replace(/'''(.+?)'''/g, '<b>$1</b>');

/** `[[Title]]` and `[[Title|text]]` as links, the rest escaped. */
export function linkedHtml(world: World, text: string): string {
  let out = '';
  let last = 0;
  for (const m of text.matchAll(/\[\[([^\]|]+)(?:\|([^\]]+))?\]\]/g)) {
    out += textHtml(text.slice(last, m.index));
    out += `<a href="${escapeHtml(pageUrl(world, m[1]!.trim()))}" title="${escapeHtml(m[1]!.trim())}">${escapeHtml((m[2] ?? m[1]!).trim())}</a>`;
    last = m.index! + m[0].length;
  }
  return out + textHtml(text.slice(last));
}

/** The titles a text links to, in order, once each. */
export function linkedTitles(text: string): string[] {
  return [...new Set([...text.matchAll(/\[\[([^\]|]+)(?:\|[^\]]+)?\]\]/g)].map((m) => m[1]!.trim()))];
}

/** Every title a page links to, from its infobox, intro and sections. */
export function pageLinks(page: WorldPage): string[] {
  const texts = [...Object.values(page.infobox), page.intro, ...page.sections.flatMap((s) => [s.text ?? '', ...(s.items ?? [])])];
  return [...new Set(texts.flatMap(linkedTitles))];
}

function pageHtml(world: World, page: WorldPage): string {
  const rows = Object.entries(page.infobox).map(([k, v]) => `<tr><th scope="row" class="infobox-label">${escapeHtml(k)}</th><td class="infobox-data">${linkedHtml(world, v)}</td></tr>`);
  const infobox = rows.length ? `<table class="infobox"><tbody><tr><th colspan="2" class="infobox-above">${escapeHtml(page.title)}</th></tr>${rows.join('')}</tbody></table>` : '';
  const sections = page.sections.map((s) => {
    const text = s.text ? s.text.split(/\n{2,}/).map((p) => `<p>${linkedHtml(world, p)}</p>`).join('') : '';
    const items = s.items ? `<ul>${s.items.map((i) => `<li>${linkedHtml(world, i)}</li>`).join('')}</ul>` : '';
    return `<h2>${escapeHtml(s.heading)}</h2>${text}${items}`;
  });
  const note = `<p><i>${escapeHtml(world.note)}</i></p>`;
  return `<div class="mw-parser-output">${infobox}<p>${linkedHtml(world, page.intro)}</p>${sections.join('')}${note}</div>`;
}

/** The page's fetch_webpage text and its URL. */
export function renderPage(world: World, page: WorldPage): { url: string; text: string } {
  const url = pageUrl(world, page.title);
  return { url, text: formatPage(page.title, url, htmlToMarkdown(pageHtml(world, page), world.wiki), page.language_editions) };
}
