import type { ProviderSpec } from './define.js';

/** Open-Meteo's archive and forecast APIs. */
export const openMeteo = {
  name: 'open-meteo',
  endpoints: { openMeteoArchive: 'https://archive-api.open-meteo.com/v1', openMeteoForecast: 'https://api.open-meteo.com/v1' },
  limits: { 'open-meteo': { concurrency: 2, intervalCap: 5, interval: 1000 } },
} as const satisfies ProviderSpec;
