import { errorResult, okResult } from '../providers/formats.js';
import type { ProviderContext, ToolResult } from '../providers/types.js';
import { requestJson } from '../providers/upstream.js';
import { isRetryableStatus } from '../retry.js';

/** fetch_webpage's host call, over the `web` provider. The HTML converter (turndown) is loaded on the first
 * call, so resolving tool names (the verifier) does not load it. */
const htmlMarkdown = () => import('../providers/html-markdown.js');

/** HTTP-client keys: Wikipedia's API and all other sites are limited separately. */
const WEB = 'web';
const WIKIPEDIA = 'wikipedia';

export const BROWSER_USER_AGENT = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
/** Wikimedia asks API clients to say who they are. */
export const API_USER_AGENT = 'AAR-Harness/0.1 (runs The Amazing Agent Race benchmark; Node.js fetch)';

/**
 * fetch_webpage (Markdown): `# <resolved title>`, a blank line, `Source: <resolved url>`, for Wikipedia a
 * `Language editions: N` line (the article's language links), a blank line, then the page as Markdown.
 * text/plain and JSON pages, and `raw_html: true`, are returned as the body alone, unchanged.
 */
export function formatPage(title: string, url: string, markdown: string, languageEditions?: number): string {
  const head = [`# ${title}`, '', `Source: ${url}`];
  if (languageEditions !== undefined) head.push(`Language editions: ${languageEditions}`);
  return `${head.join('\n')}\n\n${markdown.trim()}\n`;
}

export interface WikipediaPage {
  lang: string;
  /** With spaces, not underscores. */
  title: string;
  fragment?: string;
}

/** An article URL on any language's Wikipedia (desktop or mobile host; /wiki/Title or /w/index.php?title=). */
export function parseWikipediaUrl(url: string): WikipediaPage | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  const host = /^([a-z][a-z0-9-]*)\.(?:m\.)?wikipedia\.org$/i.exec(u.hostname);
  if (!host || host[1].toLowerCase() === 'www') return undefined;
  let raw: string | null = null;
  if (u.pathname.startsWith('/wiki/')) raw = u.pathname.slice('/wiki/'.length);
  else if (u.pathname === '/w/index.php' && !u.searchParams.has('oldid')) raw = u.searchParams.get('title');
  if (!raw) return undefined;
  let title: string;
  try {
    title = decodeURIComponent(raw);
  } catch {
    title = raw;
  }
  title = title.replace(/_/g, ' ').trim();
  if (!title) return undefined;
  const fragment = u.hash ? decodeURIComponent(u.hash.slice(1)) : undefined;
  return { lang: host[1].toLowerCase(), title, ...(fragment ? { fragment } : {}) };
}

/** The canonical desktop URL of an article, encoded the way Wikipedia writes its own links. */
export function wikipediaArticleUrl(page: WikipediaPage): string {
  const encode = (s: string) => encodeURIComponent(s.replace(/ /g, '_')).replace(/%(2F|3A|2C|3B|40|24)/gi, (m) => decodeURIComponent(m));
  return `https://${page.lang}.wikipedia.org/wiki/${encode(page.title)}${page.fragment ? `#${encode(page.fragment)}` : ''}`;
}

interface ParseAnswer {
  parse?: { title: string; pageid?: number; text: string; langlinkscount?: number; redirects?: { from: string; to: string; tofragment?: string }[] };
  error?: { code?: string; info?: string };
}

async function fetchWikipedia(ctx: ProviderContext, page: WikipediaPage, rawHtml: boolean): Promise<ToolResult> {
  const api = ctx.endpoints.wikipedia.replaceAll('{lang}', page.lang);
  const query = { action: 'parse', page: page.title, prop: 'text|langlinkscount', redirects: 1, format: 'json', formatversion: 2 };
  const headers = { 'User-Agent': API_USER_AGENT, Accept: 'application/json' };
  // The agent's language code names the host when the endpoint's host holds {lang}: guard it like any agent URL.
  const guard = /^[a-z]+:\/\/[^/]*\{lang\}/i.test(ctx.endpoints.wikipedia);
  const r = await requestJson<ParseAnswer>(ctx, WIKIPEDIA, { url: api, query, headers, guard }, `Wikipedia (${page.lang}) API request`);
  if (!r.ok) return r.result;
  const { parse, error } = r.data;
  if (error || !parse) {
    const detail = `${error?.code ?? 'unknown'}: ${error?.info ?? 'no page in the answer'}`;
    const missing = error?.code === 'missingtitle' || error?.code === 'invalidtitle';
    const message = missing ? `${page.lang}.wikipedia.org has no page titled "${page.title}" (${detail})` : `Wikipedia API error for "${page.title}" (${detail})`;
    return errorResult(message, detail);
  }
  const fragment = parse.redirects?.at(-1)?.tofragment || page.fragment;
  const resolvedUrl = wikipediaArticleUrl({ lang: page.lang, title: parse.title, ...(fragment ? { fragment } : {}) });
  if (rawHtml) return okResult(parse.text, resolvedUrl);
  const { htmlToMarkdown } = await htmlMarkdown();
  const markdown = htmlToMarkdown(parse.text, `https://${page.lang}.wikipedia.org/wiki/`);
  return okResult(formatPage(parse.title, resolvedUrl, markdown, parse.langlinkscount), resolvedUrl);
}

const PASSED_THROUGH = /^(text\/(?!html)|application\/(?:[\w.+-]*\+)?(?:json|xml)\b|application\/javascript)/i;

async function fetchPlainPage(ctx: ProviderContext, url: string, rawHtml: boolean): Promise<ToolResult> {
  const headers = {
    'User-Agent': BROWSER_USER_AGENT,
    Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    'Accept-Language': 'en-US,en;q=0.9',
  };
  let res;
  try {
    res = await ctx.http.request(WEB, { url, headers, guard: true });
  } catch (err) {
    // A refused address is transient too: it depends on the job's allow-list, so it is never recorded.
    return errorResult(`fetching ${url} failed: ${(err as Error).message}`, (err as Error).message, { transient: true });
  }
  const resolvedUrl = res.url || url;
  if (res.status < 200 || res.status >= 300) {
    const tries = res.attempts && res.attempts > 1 ? ` after ${res.attempts} attempts` : '';
    const failure = errorResult(`fetching ${url} failed with HTTP ${res.status}${tries}`, `HTTP ${res.status}`, { transient: isRetryableStatus(res.status) });
    return { ...failure, resolvedUrl };
  }
  const type = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  const isHtml = type === 'text/html' || type === 'application/xhtml+xml' || (type === '' && /^\s*<(!doctype html|html)/i.test(res.text));
  if (!isHtml) {
    if (type === '' || PASSED_THROUGH.test(type)) return okResult(res.text, resolvedUrl);
    return { ...errorResult(`${url} is ${type}, not a page that can be read as text`, `content-type ${type}`), resolvedUrl };
  }
  if (rawHtml) return okResult(res.text, resolvedUrl);
  const { htmlTitle, htmlToMarkdown } = await htmlMarkdown();
  const title = htmlTitle(res.text) ?? resolvedUrl;
  return okResult(formatPage(title, resolvedUrl, htmlToMarkdown(res.text, resolvedUrl)), resolvedUrl);
}

/**
 * fetch_webpage. Wikipedia articles go through the MediaWiki parse API (redirects followed; `resolvedUrl`
 * is the canonical URL of the title the API resolved to); other URLs are fetched directly with redirects
 * followed (`resolvedUrl` is the final URL).
 */
export async function fetchPage(args: Record<string, unknown>, ctx: ProviderContext): Promise<ToolResult> {
  const url = String(args.url);
  const rawHtml = args.raw_html === true;
  const page = parseWikipediaUrl(url);
  return page ? fetchWikipedia(ctx, page, rawHtml) : fetchPlainPage(ctx, url, rawHtml);
}
