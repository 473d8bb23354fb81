import type { DraftStop } from '../draft.js';
import { dropped, kept, type StepResult } from '../draft.js';
import type { Ledger } from '../ledger.js';
import type { GenerationTools } from '../tool-runner.js';
import type { Crawl } from './crawl.js';

/**
 * Step 5, link: each route-info stop leads to the next by `link_follow` when its page links there, else by
 * `search_query` when a web search for the next page finds it (checked through the tool service). A hop
 * neither reaches drops the leg.
 */
export async function link(stops: DraftStop[], crawl: Crawl, tools: GenerationTools, ledger: Ledger): Promise<StepResult<DraftStop[]>> {
  const pages = stops.filter((s) => s.type === 'page');
  for (const [i, stop] of pages.entries()) {
    const next = pages[i + 1];
    if (!next) {
      stop.bridge = { type: 'link_follow', targetUrl: null, searchQuery: null, expectedResultUrl: null };
      continue;
    }
    const here = crawl.pages.get(stop.pageUrl!)!;
    next.deps = [stop.id]; // the next page is reached from this one
    if (here.links.some((l) => l.url === next.pageUrl)) {
      stop.bridge = { type: 'link_follow', targetUrl: next.pageUrl, searchQuery: null, expectedResultUrl: null };
      ledger.keep('link', 'link_follow');
      continue;
    }
    const title = crawl.pages.get(next.pageUrl!)!.title;
    const answer = await tools.call({ tool: 'web_search', args: { query: title } });
    const found = answer.ok && answer.text.includes(next.pageUrl!);
    if (!found) {
      const reason = answer.ok ? `a search for the next page does not find ${next.pageUrl}` : `web_search failed: ${answer.text.split('\n')[0]}`;
      ledger.drop('link', 'search_query', reason);
      return dropped(`no link or search leads from "${here.title}" to "${title}": ${reason}`);
    }
    stop.bridge = { type: 'search_query', targetUrl: null, searchQuery: title, expectedResultUrl: next.pageUrl };
    ledger.keep('link', 'search_query');
  }
  return kept(stops);
}
