import TurndownService from 'turndown';

/** Elements whose content is clutter for an agent reading the page. */
const DROPPED_TAGS = ['script', 'style', 'noscript', 'template', 'link', 'meta', 'head', 'title', 'svg', 'iframe', 'img', 'picture', 'button', 'input'] as const;

/** Wikipedia furniture: edit links, reference markers and backlinks, navigation boxes, maintenance notices. */
const DROPPED_CLASSES = ['mw-editsection', 'reference', 'mw-cite-backlink', 'navbox', 'navbox-styles', 'sistersitebox', 'mw-empty-elt', 'ambox', 'mw-jump-link'];

/** The part of a DOM element used here (the DOM types are not in this project's lib). */
interface Element {
  nodeName: string;
  getAttribute(name: string): string | null;
}

const classesOf = (node: Element): string[] => (node.getAttribute?.('class') ?? '').split(/\s+/).filter(Boolean);

function absoluteHref(href: string, baseUrl: string): string | undefined {
  if (href.startsWith('#') || /^javascript:/i.test(href)) return undefined;
  try {
    return new URL(href, baseUrl).toString();
  } catch {
    return undefined;
  }
}

/** A table cell's Markdown on one line: its lines joined with "; ", list markers dropped, pipes escaped. */
function cellText(content: string): string {
  return content
    .split('\n')
    .map((line) => line.trim().replace(/^(?:[-*+]|\d+\\?\.)\s+/, ''))
    .filter(Boolean)
    .join('; ')
    .replace(/(?<!\\)\|/g, '\\|');
}

function tableMarkdown(content: string): string {
  const lines = content.split('\n').map((l) => l.trim()).filter(Boolean);
  const rows = lines.filter((l) => l.startsWith('|') && /[^|\s]/.test(l));
  const other = lines.filter((l) => !l.startsWith('|'));
  if (rows.length === 0) return `\n\n${other.join('\n\n')}\n\n`;
  const columns = Math.max(1, ...rows.map((r) => r.split(/(?<!\\)\|/).length - 2));
  const separator = `|${' --- |'.repeat(columns)}`;
  const caption = other.length ? `${other.join(' ')}\n\n` : '';
  return `\n\n${caption}${[rows[0], separator, ...rows.slice(1)].join('\n')}\n\n`;
}

function makeService(baseUrl: string): TurndownService {
  const service = new TurndownService({ headingStyle: 'atx', bulletListMarker: '-', codeBlockStyle: 'fenced', emDelimiter: '*' });
  // A rule rather than remove(): removal ranks below turndown's own rules (img, a, ...), added rules above.
  service.addRule('dropped', {
    filter: (node) => {
      const el = node as unknown as Element;
      return (DROPPED_TAGS as readonly string[]).includes(el.nodeName.toLowerCase()) || classesOf(el).some((c) => DROPPED_CLASSES.includes(c));
    },
    replacement: () => '',
  });
  service.addRule('absoluteLinks', {
    filter: (node) => (node as unknown as Element).nodeName === 'A' && !!(node as unknown as Element).getAttribute('href'),
    replacement: (content, node) => {
      const text = content.trim();
      if (!text) return '';
      const href = absoluteHref((node as unknown as Element).getAttribute('href') ?? '', baseUrl);
      return href ? `[${text}](${href})` : text;
    },
  });
  service.addRule('tableCell', { filter: ['th', 'td'], replacement: (content) => ` ${cellText(content)} |` });
  service.addRule('tableRow', { filter: 'tr', replacement: (content) => `\n|${content}\n` });
  service.addRule('tableCaption', { filter: 'caption', replacement: (content) => `\n${content.trim()}\n` });
  service.addRule('table', { filter: 'table', replacement: (content) => tableMarkdown(content) });
  return service;
}

/** HTML (a page or a fragment) as Markdown; relative links are made absolute against `baseUrl`. */
export function htmlToMarkdown(html: string, baseUrl: string): string {
  const markdown = makeService(baseUrl).turndown(html);
  return markdown.replace(/[ \t]+$/gm, '').replace(/\n{3,}/g, '\n\n').trim();
}

/** Elements whose edges separate words in text (a line break, a block). */
const BLOCKS = new Set(['DIV', 'P', 'BR', 'LI', 'TR', 'TD', 'TH', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'UL', 'OL', 'TABLE']);

let textService: TurndownService | undefined;

/** HTML to text by the same parser as the Markdown (every named and numeric entity decoded), no markup kept. */
function plainTextService(): TurndownService {
  if (textService) return textService;
  const service = new TurndownService();
  service.escape = (text: string) => text;
  service.addRule('text', {
    filter: () => true,
    replacement: (content, node) => (BLOCKS.has((node as unknown as Element).nodeName) ? ` ${content} ` : content),
  });
  return (textService = service);
}

/** Text of an HTML snippet: tags removed (block boundaries become spaces), entities decoded, spaces collapsed. */
export function htmlToText(html: string): string {
  if (!html.trim()) return '';
  return plainTextService().turndown(html).replace(/\s+/g, ' ').trim();
}

/** The document's <title>, as text; undefined when absent or empty. */
export function htmlTitle(html: string): string | undefined {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const title = m ? htmlToText(m[1]) : '';
  return title || undefined;
}
