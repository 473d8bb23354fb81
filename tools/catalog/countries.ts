import { z } from 'zod';
import { text } from './args.js';
import { errorResult, jsonText, okResult } from '../providers/formats.js';
import type { ProviderContext, ToolResult } from '../providers/types.js';
import { requestJson } from '../providers/upstream.js';
import { defineTool } from './define.js';
import { numeric } from './synthetic.js';

const REST_COUNTRIES = 'rest-countries';

/** countries_population: `{"country" (common name),"population" (integer)}`. */
export const formatCountryPopulation = (country: string, population: number): string => jsonText({ country, population });
/** countries_area: `{"country" (common name),"area_km2"}`. */
export const formatCountryArea = (country: string, areaKm2: number): string => jsonText({ country, area_km2: areaKm2 });

export interface CountryRecord {
  name: { common: string; official: string };
  population: number;
  area: number;
}

const normalise = (s: string) => s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/** The country a name means: an exact common or official name, else the most populous match. */
export function bestCountry(name: string, candidates: CountryRecord[]): CountryRecord | undefined {
  const wanted = normalise(name);
  const exact = candidates.find((c) => normalise(c.name.common) === wanted || normalise(c.name.official) === wanted);
  return exact ?? [...candidates].sort((a, b) => (b.population ?? 0) - (a.population ?? 0))[0];
}

/** Exact-name search first (so "United States" is not one of its territories), then REST Countries' fuzzy search. */
async function findCountry(ctx: ProviderContext, name: string): Promise<{ ok: true; country: CountryRecord } | { ok: false; result: ToolResult }> {
  const url = `${ctx.endpoints.restCountries}/name/${encodeURIComponent(name)}`;
  for (const fullText of [true, false]) {
    const query = { fields: 'name,population,area', ...(fullText ? { fullText: 'true' } : {}) };
    const r = await requestJson<CountryRecord[]>(ctx, REST_COUNTRIES, { url, query }, 'REST Countries request');
    if (!r.ok) {
      if (r.status === 404) continue;
      return r;
    }
    const country = Array.isArray(r.data) ? bestCountry(name, r.data.filter((c) => c?.name?.common)) : undefined;
    if (country) return { ok: true, country };
  }
  return { ok: false, result: errorResult(`no country matches "${name}"`, 'HTTP 404') };
}

/** `{country}`, or `{name}` as some agents send it. */
const countryArgs = () => z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) && (v as Record<string, unknown>).country === undefined ? { ...v, country: (v as Record<string, unknown>).name } : v),
  z.object({ country: text('country').describe('country name, e.g. "France"') }),
);

/** A REST Countries tool (v3.1): one figure of a country. */
const countryTool = (name: string, summary: string, returns: string, figure: (c: CountryRecord) => number, format: (country: string, figure: number) => string) =>
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
      return found.ok ? okResult(format(found.country.name.common, figure(found.country))) : found.result;
    },
  });

export const countriesPopulation = countryTool('countries_population', 'Population of a country (REST Countries).', 'JSON with country (common name) and population', (c) => c.population, formatCountryPopulation);

export const countriesArea = countryTool('countries_area', 'Area of a country in km2 (REST Countries).', 'JSON with country (common name) and area_km2', (c) => c.area, formatCountryArea);
