import type { ProviderSpec } from './define.js';

/** Yahoo Finance's v8 chart API. */
export const yahooFinance = {
  name: 'yahoo-finance',
  endpoints: { yahooFinance: 'https://query1.finance.yahoo.com' },
  limits: { 'yahoo-finance': { concurrency: 2, intervalCap: 2, interval: 1000 } },
} as const satisfies ProviderSpec;
