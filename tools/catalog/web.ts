import { z } from 'zod';
import { text } from './args.js';
import { errorResult, jsonText, okResult } from '../providers/formats.js';
import type { ProviderContext, ToolResult } from '../providers/types.js';
import { requestJson } from '../providers/upstream.js';
import { defineTool } from './define.js';
import { fetchPage } from './web-page.js';

const SERPER = 'serper';

/** Serper's answer fields that are about the operator's account, not the search: left out. */
const ACCOUNT_FIELDS = new Set(['credits']);
/** Results asked of Serper at most (the golden values' search tool capped `num` at 10). */
export const MAX_SEARCH_RESULTS = 10;

/**
 * web_search: Serper's whole answer, as the search tool of the golden values returned it (searchParameters,
 * knowledgeGraph, answerBox, organic with dates, sitelinks and attributes, peopleAlsoAsk, relatedSearches,
 * topStories, ...), less `credits` (the account's balance). With `sections`, only those sections, lists cut
 * at `num_results`.
 */
export function formatWebSearch(answer: Record<string, unknown>, sections?: readonly string[], numResults = 5): string {
  if (!sections?.length) return jsonText(Object.fromEntries(Object.entries(answer).filter(([k]) => !ACCOUNT_FIELDS.has(k))));
  return jsonText(Object.fromEntries(sections.map((k) => {
    const value = answer[k];
    return [k, Array.isArray(value) ? value.slice(0, numResults) : (value ?? null)];
  })));
}

/** web_search through Serper's Google search API (POST <serper>/search, key in X-API-KEY). */
async function search(args: Record<string, unknown>, ctx: ProviderContext): Promise<ToolResult> {
  if (!ctx.keys.serper) return errorResult('SERPER_API_KEY is not set on the host');
  const numResults = Number(args.num_results ?? 5);
  const body = {
    q: String(args.query),
    location: String(args.location ?? 'United States'),
    gl: String(args.gl ?? 'us'),
    hl: String(args.hl ?? 'en'),
    num: Math.max(1, Math.min(numResults, MAX_SEARCH_RESULTS)),
  };
  const r = await requestJson<Record<string, unknown>>(
    ctx,
    SERPER,
    { method: 'POST', url: `${ctx.endpoints.serper}/search`, headers: { 'X-API-KEY': ctx.keys.serper }, json: body },
    'Serper search',
  );
  if (!r.ok) return r.result;
  if (!r.data || typeof r.data !== 'object' || Array.isArray(r.data)) return errorResult('Serper search returned an answer that is not an object', JSON.stringify(r.data).slice(0, 300));
  return okResult(formatWebSearch(r.data, args.sections as string[] | undefined, numResults));
}

export const fetchWebpage = defineTool({
  name: 'fetch_webpage',
  group: 'web',
  summary: 'Fetch a web page and return it as Markdown; Wikipedia pages are read through the MediaWiki API with redirects followed.',
  returns: 'the page as Markdown, headed by its resolved title and URL',
  args: () => z.object({
    url: text('url')
      .pipe(z.url({ protocol: /^https?$/, error: 'url must be an absolute http(s) URL' }))
      .describe('absolute http(s) URL'),
    raw_html: z.boolean().optional().describe('return the HTML instead of Markdown (default false)'),
  }),
  example: { url: 'https://en.wikipedia.org/wiki/Mount_Everest' },
  runsIn: 'gateway',
  provider: 'web',
  run: fetchPage,
});

export const webSearch = defineTool({
  name: 'web_search',
  aliases: ['serper_search', 'serper_google_search'],
  group: 'web',
  summary: 'Search the web (Google results through Serper).',
  returns: "JSON: Serper's answer (organic results with title, link and snippet; answer box, knowledge graph, people also ask, related searches, top stories when present)",
  args: () => z.object({
    query: text('query').describe('search terms'),
    num_results: z.coerce.number().int().min(1).max(100).optional().describe(`results per section, at most ${MAX_SEARCH_RESULTS} (default 5)`),
    location: z.string().optional().describe('where the search is made from (default "United States")'),
    gl: z.string().optional().describe('country code of the search (default "us")'),
    hl: z.string().optional().describe('language code of the search (default "en")'),
    sections: z.array(z.string()).optional().describe('only these sections of the answer, e.g. ["organic", "answerBox"] (default: all)'),
  }),
  example: { query: 'tallest mountain in Europe' },
  runsIn: 'gateway',
  provider: SERPER,
  run: search,
});
