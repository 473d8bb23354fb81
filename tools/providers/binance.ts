import type { ProviderSpec } from './define.js';

/** Binance's public market-data API. */
export const binance = {
  name: 'binance',
  endpoints: { binance: 'https://api.binance.com/api/v3' },
} as const satisfies ProviderSpec;
