import { errorResult, formatWebSearch, okResult, type AnswerBox, type KnowledgeGraph, type OrganicResult } from './formats.js';
import type { ToolProvider } from './types.js';
import { requestJson } from './upstream.js';

const SERPER = 'serper';

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
export const serperProvider: ToolProvider = {
  name: SERPER,
  async call(tool, args, ctx) {
    if (tool !== 'web_search') return errorResult(`${SERPER} does not serve ${tool}`);
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
  },
};
