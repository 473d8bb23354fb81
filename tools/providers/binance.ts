import type { ProviderSpec } from './define.js';

/**
 * Binance's public market-data API: binance.us first (reachable from US hosts, where binance.com answers
 * HTTP 451), then binance.com, as the tools the golden values were computed with asked them.
 */
export const binance = {
  name: 'binance',
  endpoints: { binanceUs: 'https://api.binance.us/api/v3', binance: 'https://api.binance.com/api/v3' },
  limits: { binance: { concurrency: 4, intervalCap: 10, interval: 1000 } },
} as const satisfies ProviderSpec;
