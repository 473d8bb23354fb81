import { z } from 'zod';
import { text } from './args.js';
import { defineTool } from './define.js';

/** `{country}`, or `{name}` as some agents send it. */
const countryArgs = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && (v as Record<string, unknown>).country === undefined ? { ...v, country: (v as Record<string, unknown>).name } : v),
  z.object({ country: text('country').describe('country name, e.g. "France"') }),
);

export const countriesPopulation = defineTool({
  name: 'countries_population',
  group: 'countries',
  summary: 'Population of a country (REST Countries).',
  returns: 'JSON with country (common name) and population',
  args: countryArgs,
  example: { country: 'France' },
  runsIn: 'gateway',
  provider: 'rest-countries',
});

export const countriesArea = defineTool({
  name: 'countries_area',
  group: 'countries',
  summary: 'Area of a country in km2 (REST Countries).',
  returns: 'JSON with country (common name) and area_km2',
  args: countryArgs,
  example: { country: 'France' },
  runsIn: 'gateway',
  provider: 'rest-countries',
});
