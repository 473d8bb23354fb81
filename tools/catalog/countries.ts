import { z } from 'zod';
import { text } from './args.js';
import { errorResult, jsonText, okResult } from '../providers/formats.js';
import type { ProviderContext, ToolResult } from '../providers/types.js';
import { requestJson } from '../providers/upstream.js';
import { defineTool } from './define.js';
import { numeric } from './synthetic.js';

const REST_COUNTRIES = 'rest-countries';

/** countries_population: `{"country" (common name),"population" (integer)}`. */
export const formatCountryPopulation = (country: string, population: number | null): string => jsonText({ country, population });
/** countries_area: `{"country" (common name),"area_km2"}`. */
export const formatCountryArea = (country: string, areaKm2: number | null): string => jsonText({ country, area_km2: areaKm2 });

export interface CountryRecord {
  name?: { common?: string; official?: string };
  population?: number | null;
  area?: number | null;
}

/**
 * The country REST Countries' name search answers first. The golden values were computed from the first
 * match of this fuzzy search (the AAR authors' countries server takes `data[0]`), so a name that matches
 * several countries answers as it did for them: "United States" gives the first of its matches, which may
 * be a territory. An agent reading the answer sees which country it is (`country`, its common name).
 */
async function findCountry(ctx: ProviderContext, name: string): Promise<{ ok: true; country: CountryRecord } | { ok: false; result: ToolResult }> {
  const url = `${ctx.endpoints.restCountries}/name/${encodeURIComponent(name)}`;
  const r = await requestJson<CountryRecord[]>(ctx, REST_COUNTRIES, { url, query: { fields: 'name,population,area' } }, 'REST Countries request');
  if (!r.ok) return r.status === 404 ? { ok: false, result: errorResult(`no country matches "${name}"`, 'HTTP 404') } : r;
  const first = Array.isArray(r.data) ? r.data[0] : undefined;
  if (!first || typeof first !== 'object') return { ok: false, result: errorResult(`no country matches "${name}"`, 'an empty answer') };
  return { ok: true, country: first };
}

/** `{country}`, or `{name}` as some agents send it. */
const countryArgs = () => z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && (v as Record<string, unknown>).country === undefined ? { ...v, country: (v as Record<string, unknown>).name } : v),
  z.object({ country: text('country').describe('country name, e.g. "France"') }),
);

/** A REST Countries tool (v3.1): one figure of a country. */
const countryTool = (name: string, summary: string, returns: string, figure: (c: CountryRecord) => number | null, format: (country: string, figure: number | null) => string) =>
  defineTool({
    name,
    group: 'countries',
    summary,
    returns,
    args: countryArgs,
    example: { country: 'France' },
    runsIn: 'gateway',
    provider: REST_COUNTRIES,
    synthetic: (a, value) => format(String(a.country), numeric(value)),
    run: async (args, ctx) => {
      const found = await findCountry(ctx, String(args.country));
      if (!found.ok) return found.result;
      const common = found.country.name?.common;
      return okResult(format(typeof common === 'string' ? common : String(args.country), figure(found.country)));
    },
  });

export const countriesPopulation = countryTool('countries_population', 'Population of a country (REST Countries name search: the first country whose name matches).', 'JSON with country (common name) and population', (c) => (typeof c.population === 'number' ? c.population : null), formatCountryPopulation);

export const countriesArea = countryTool('countries_area', 'Area of a country in km2 (REST Countries name search: the first country whose name matches).', 'JSON with country (common name) and area_km2', (c) => (typeof c.area === 'number' ? c.area : null), formatCountryArea);
