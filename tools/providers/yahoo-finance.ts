import type { ProviderSpec } from './define.js';

/** Yahoo Finance's v8 chart API. */
export const yahooFinance = {
  name: 'yahoo-finance',
  endpoints: { yahooFinance: 'https://query1.finance.yahoo.com' },
} as const satisfies ProviderSpec;
