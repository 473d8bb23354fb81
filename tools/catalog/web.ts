import { z } from 'zod';
import { text } from './args.js';
import { defineTool } from './define.js';

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
  provider: 'serper',
});
