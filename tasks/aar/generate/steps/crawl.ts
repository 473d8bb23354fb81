import { shuffleInPlace } from '../../../../common/random.js';
import { canonicalUrl } from '../../../../tools/store/canonical.js';
import type { PageInfo } from '../draft.js';
import { dropped, kept, type StepResult } from '../draft.js';
import type { LevelSpec } from '../levels.js';
import type { Ledger } from '../ledger.js';
import type { GenerationTools } from '../tool-runner.js';
import { readPage } from './page-reader.js';

/**
 * Step 1, crawl: the seed page and the pages its links reach within the level's crawl depth, each
 * fetched through the tool service (tool-runner.ts), so a crawl is live, recorded or replayed like any
 * tool call. Random seeds come from MediaWiki's random API (fetched the same way) and are filtered as the
 * paper's pipeline does: no list, index, timeline or disambiguation page, English text, an infobox with
 * numeric fields, not a taxonomy box.
 */

export interface Crawl {
  seed: PageInfo;
  pages: Map<string, PageInfo>;
}

const BAD_TITLE = /^(List of |Lists of |Index of |Outline of |Glossary of |Timeline of |Comparison of |Bibliography of |History of |Deaths in |[A-Z][a-z]*:)|\((disambiguation|journal|magazine|TV series|film series)\)|^\d{1,4}(s| in .*)?$/i;
const TAXONOMY_KEYS = new Set(['kingdom', 'phylum', 'class', 'order', 'family', 'genus', 'species', 'domain', 'clade', 'binomial name', 'subfamily', 'tribe']);

/** Why a page cannot be a seed, or undefined when it can. */
export function seedProblem(page: PageInfo): string | undefined {
  if (BAD_TITLE.test(page.title) || page.title.length <= 2) return `"${page.title}" is a list, index, disambiguation or similar page`;
  const sample = page.intro || page.text.slice(0, 2000);
  const ascii = [...sample].filter((c) => c.charCodeAt(0) < 128).length;
  if (sample.length >= 50 && ascii / sample.length < 0.7) return `"${page.title}" is not in English (${Math.round((100 * ascii) / sample.length)}% ASCII)`;
  const taxonomy = page.infobox.filter((f) => TAXONOMY_KEYS.has(f.key.toLowerCase().replace(/:$/, ''))).length;
  if (taxonomy >= 4 && taxonomy / page.infobox.length >= 0.4) return `"${page.title}" has a taxonomy infobox`;
  if (page.infobox.length < 3) return `"${page.title}" has ${page.infobox.length} infobox fields (fewer than 3)`;
  if (!page.infobox.some((f) => /\d/.test(f.value))) return `"${page.title}" has no numeric infobox field`;
  return undefined;
}

async function fetchPage(tools: GenerationTools, url: string, depth: number): Promise<PageInfo | string> {
  const answer = await tools.call({ tool: 'fetch_webpage', args: { url } });
  if (!answer.ok) return `fetching ${url} failed: ${answer.text.replace(/^Error: /, '').split('\n')[0]}`;
  return readPage(url, answer.text, depth);
}

/** Seeds drawn from MediaWiki's random API, in the run's random order, the bad ones filtered out (each drop recorded). */
export async function randomSeed(tools: GenerationTools, candidates: number, random: () => number, ledger: Ledger, avoid: ReadonlySet<string>): Promise<StepResult<PageInfo>> {
  const api = 'https://en.wikipedia.org/w/api.php?action=query&format=json&list=random&rnlimit=20&rnnamespace=0';
  const answer = await tools.call({ tool: 'fetch_webpage', args: { url: api } });
  if (!answer.ok) return dropped(`the random-page API failed: ${answer.text.split('\n')[0]}`);
  let titles: string[];
  try {
    titles = ((JSON.parse(answer.text) as { query?: { random?: { title?: string }[] } }).query?.random ?? []).flatMap((r) => (r.title ? [r.title] : []));
  } catch {
    return dropped('the random-page API answered something that is not its JSON');
  }
  for (const title of shuffleInPlace(titles, random).slice(0, candidates)) {
    const url = canonicalUrl(`https://en.wikipedia.org/wiki/${title.replace(/ /g, '_')}`);
    if (avoid.has(url)) continue;
    const page = await fetchPage(tools, url, 0);
    const problem = typeof page === 'string' ? page : seedProblem(page);
    if (problem) {
      ledger.drop('crawl', 'seeds', problem);
      continue;
    }
    ledger.keep('crawl', 'seeds');
    return kept(page as PageInfo);
  }
  return dropped(`none of ${Math.min(candidates, titles.length)} random pages passed the seed filters`);
}

/** The seed and the pages within the level's depth (breadth first, in link order, up to max_pages). */
export async function crawl(tools: GenerationTools, seed: PageInfo | string, level: LevelSpec, ledger: Ledger): Promise<StepResult<Crawl>> {
  let seedPage: PageInfo;
  if (typeof seed === 'string') {
    const fetched = await fetchPage(tools, seed, 0);
    if (typeof fetched === 'string') return dropped(fetched);
    const problem = seedProblem(fetched);
    if (problem) return dropped(problem);
    seedPage = fetched;
  } else seedPage = seed;
  const pages = new Map<string, PageInfo>([[seedPage.url, seedPage]]);
  let frontier = [seedPage];
  for (let depth = 1; depth <= level.crawl_depth && frontier.length && pages.size < level.max_pages; depth++) {
    const next: PageInfo[] = [];
    for (const page of frontier) {
      for (const link of page.links) {
        if (pages.has(link.url) || pages.size >= level.max_pages) continue;
        const fetched = await fetchPage(tools, link.url, depth);
        if (typeof fetched === 'string') {
          ledger.drop('crawl', 'pages', fetched);
          pages.set(link.url, { ...readPage(link.url, '', depth), infobox: [], links: [] });
          continue;
        }
        ledger.keep('crawl', 'pages');
        pages.set(fetched.url, fetched);
        next.push(fetched);
      }
    }
    frontier = next;
  }
  for (const [url, page] of pages) if (!page.text) pages.delete(url);
  return kept({ seed: seedPage, pages });
}
