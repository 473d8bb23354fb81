import { z } from 'zod';
import { text } from './args.js';
import { errorResult, jsonText, okResult } from '../providers/formats.js';
import type { ProviderContext, ToolResult } from '../providers/types.js';
import { requestJson } from '../providers/upstream.js';
import { defineTool } from './define.js';
import { fetchPage } from './web-page.js';

const SERPER = 'serper';

export interface OrganicResult {
  title: string;
  link: string;
  snippet: string;
  position: number;
}
/** Present keys only. */
export interface AnswerBox {
  title?: string;
  answer?: string;
  snippet?: string;
  link?: string;
}
/** Present keys only; `attributes` maps labels to values ("Height": "8,849 m"). */
export interface KnowledgeGraph {
  title?: string;
  type?: string;
  description?: string;
  website?: string;
  attributes?: Record<string, string>;
}
/** web_search: `{"organic":[{"title","link","snippet","position"}],"answerBox"?,"knowledgeGraph"?}`. */
export function formatWebSearch(organic: OrganicResult[], answerBox?: AnswerBox, knowledgeGraph?: KnowledgeGraph): string {
  return jsonText({ organic, ...(answerBox ? { answerBox } : {}), ...(knowledgeGraph ? { knowledgeGraph } : {}) });
}

interface SerperAnswer {
  organic?: { title?: string; link?: string; snippet?: string; position?: number }[];
  answerBox?: Record<string, unknown>;
  knowledgeGraph?: Record<string, unknown>;
}

/** The listed string fields of `source` that are present. */
function pickStrings<K extends string>(source: Record<string, unknown> | undefined, keys: readonly K[]): Partial<Record<K, string>> | undefined {
  if (!source) return undefined;
  const out: Partial<Record<K, string>> = {};
  for (const k of keys) if (typeof source[k] === 'string' && source[k] !== '') out[k] = source[k] as string;
  return Object.keys(out).length ? out : undefined;
}

function knowledgeGraph(source: Record<string, unknown> | undefined): KnowledgeGraph | undefined {
  const kg: KnowledgeGraph | undefined = pickStrings(source, ['title', 'type', 'description', 'website'] as const);
  const attrs = source?.attributes;
  if (attrs && typeof attrs === 'object' && !Array.isArray(attrs)) {
    const strings = Object.fromEntries(Object.entries(attrs).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
    if (Object.keys(strings).length) return { ...kg, attributes: strings };
  }
  return kg;
}

/** web_search through Serper's Google search API (POST <serper>/search, key in X-API-KEY). */
async function search(args: Record<string, unknown>, ctx: ProviderContext): Promise<ToolResult> {
  if (!ctx.keys.serper) return errorResult('SERPER_API_KEY is not set on the host');
  const body = { q: String(args.query), num: Number(args.num_results ?? 5), gl: String(args.gl ?? 'us'), hl: String(args.hl ?? 'en') };
  const r = await requestJson<SerperAnswer>(
    ctx,
    SERPER,
    { method: 'POST', url: `${ctx.endpoints.serper}/search`, headers: { 'X-API-KEY': ctx.keys.serper }, json: body },
    'Serper search',
  );
  if (!r.ok) return r.result;
  const organic: OrganicResult[] = (r.data.organic ?? []).map((o, i) => ({
    title: o.title ?? '',
    link: o.link ?? '',
    snippet: o.snippet ?? '',
    position: o.position ?? i + 1,
  }));
  const answerBox: AnswerBox | undefined = pickStrings(r.data.answerBox, ['title', 'answer', 'snippet', 'link'] as const);
  return okResult(formatWebSearch(organic, answerBox, knowledgeGraph(r.data.knowledgeGraph)));
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
  aliases: ['serper_search'],
  group: 'web',
  summary: 'Search the web (Google results through Serper).',
  returns: 'JSON with the organic results (title, link, snippet) and, when present, the answer box and knowledge graph',
  args: () => z.object({
    query: text('query').describe('search terms'),
    num_results: z.coerce.number().int().min(1).max(20).optional().describe('number of results, 1-20 (default 5)'),
    gl: z.string().optional().describe('country code of the search (default "us")'),
    hl: z.string().optional().describe('language code of the search (default "en")'),
  }),
  example: { query: 'tallest mountain in Europe' },
  runsIn: 'gateway',
  provider: SERPER,
  run: search,
});
