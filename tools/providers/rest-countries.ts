import { errorResult, formatCountryArea, formatCountryPopulation, okResult } from './formats.js';
import type { ProviderContext, ToolProvider, ToolResult } from './types.js';
import { requestJson } from './upstream.js';

const REST_COUNTRIES = 'rest-countries';

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

/** countries_population and countries_area from REST Countries v3.1. */
export const restCountriesProvider: ToolProvider = {
  name: REST_COUNTRIES,
  async call(tool, args, ctx) {
    if (tool !== 'countries_population' && tool !== 'countries_area') return errorResult(`${REST_COUNTRIES} does not serve ${tool}`);
    const found = await findCountry(ctx, String(args.country));
    if (!found.ok) return found.result;
    const { name, population, area } = found.country;
    return okResult(tool === 'countries_population' ? formatCountryPopulation(name.common, population) : formatCountryArea(name.common, area));
  },
};
