import { z } from 'zod';
import { text } from './args.js';
import { formatCountryArea, formatCountryPopulation } from '../providers/formats.js';
import { defineTool } from './define.js';
import { numeric } from './synthetic.js';

/** `{country}`, or `{name}` as some agents send it. */
const countryArgs = () => z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && (v as Record<string, unknown>).country === undefined ? { ...v, country: (v as Record<string, unknown>).name } : v),
  z.object({ country: text('country').describe('country name, e.g. "France"') }),
);

/** A REST Countries tool: one figure of a country. */
const countryTool = (name: string, summary: string, returns: string, format: (country: string, figure: number) => string) =>
  defineTool({
    name,
    group: 'countries',
    summary,
    returns,
    args: countryArgs,
    example: { country: 'France' },
    runsIn: 'gateway',
    provider: 'rest-countries',
    synthetic: (a, value) => format(String(a.country), numeric(value)),
  });

export const countriesPopulation = countryTool('countries_population', 'Population of a country (REST Countries).', 'JSON with country (common name) and population', formatCountryPopulation);

export const countriesArea = countryTool('countries_area', 'Area of a country in km2 (REST Countries).', 'JSON with country (common name) and area_km2', formatCountryArea);
