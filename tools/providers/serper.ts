import type { ProviderSpec } from './define.js';

/** Serper's Google search API. */
export const serper = {
  name: 'serper',
  endpoints: { serper: 'https://google.serper.dev' },
  keys: { serper: 'SERPER_API_KEY' },
  limits: { serper: { concurrency: 4 } },
} as const satisfies ProviderSpec;
