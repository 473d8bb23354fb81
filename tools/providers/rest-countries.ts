import type { ProviderSpec } from './define.js';

/** REST Countries v3.1. */
export const restCountries = {
  name: 'rest-countries',
  endpoints: { restCountries: 'https://restcountries.com/v3.1' },
  limits: { 'rest-countries': { concurrency: 2, intervalCap: 5, interval: 1000 } },
} as const satisfies ProviderSpec;
