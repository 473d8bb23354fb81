import type { ProviderSpec } from './define.js';

/** Binance's public market-data API. */
export const binance = {
  name: 'binance',
  endpoints: { binance: 'https://api.binance.com/api/v3' },
  limits: { binance: { concurrency: 4, intervalCap: 10, interval: 1000 } },
} as const satisfies ProviderSpec;
