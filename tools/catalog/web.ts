import { z } from 'zod';
import { text } from './args.js';

/** fetch_webpage */
export const fetchWebpageArgs = z.object({
    url: text('url').pipe(z.url({ protocol: /^https?$/, error: 'url must be an absolute http(s) URL' })),
    raw_html: z.boolean().optional(),
  });

/** web_search */
export const webSearchArgs = z.object({
    query: text('query'),
    num_results: z.coerce.number().int().min(1).max(20).optional(),
    gl: z.string().optional(),
    hl: z.string().optional(),
  });
