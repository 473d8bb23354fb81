import type { ProviderSpec } from './define.js';

/** Web pages, and Wikipedia's MediaWiki action API (`{lang}` is replaced by the wiki's language code). */
export const web = {
  name: 'web',
  endpoints: { wikipedia: 'https://{lang}.wikipedia.org/w/api.php' },
  limits: { web: { concurrency: 8 }, wikipedia: { concurrency: 4, intervalCap: 20, interval: 1000 } },
} as const satisfies ProviderSpec;
