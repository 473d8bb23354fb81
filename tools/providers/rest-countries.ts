import type { ProviderSpec } from './define.js';

/** REST Countries v3.1. */
export const restCountries = {
  name: 'rest-countries',
  endpoints: { restCountries: 'https://restcountries.com/v3.1' },
} as const satisfies ProviderSpec;
