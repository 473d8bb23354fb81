import type { ProviderSpec } from './define.js';

/** Web pages, and Wikipedia's MediaWiki action API (`{lang}` is replaced by the wiki's language code). */
export const web = {
  name: 'web',
  endpoints: { wikipedia: 'https://{lang}.wikipedia.org/w/api.php' },
} as const satisfies ProviderSpec;
