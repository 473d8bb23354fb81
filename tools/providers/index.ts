import { binance } from './binance.js';
import { BUILT_IN, Registry } from '../../common/registry.js';
import type { ProviderLimits, ProviderSpec } from './define.js';
import { codeModel } from './code-model.js';
import { googleMaps } from './google-maps.js';
import { openMeteo } from './open-meteo.js';
import { restCountries } from './rest-countries.js';
import { serper } from './serper.js';
import { web } from './web.js';
import { yahooFinance } from './yahoo-finance.js';

/**
 * The live providers (transport only: name, endpoints, keys, default limits). A tool that runs on the host names the one
 * it calls over; adding a provider is one module and one line here. Every table below derives from this list.
 */
export const PROVIDER_LIST = [web, serper, googleMaps, openMeteo, restCountries, yahooFinance, binance, codeModel] as const;

type Provider = (typeof PROVIDER_LIST)[number];
export type ProviderName = Provider['name'];

type EndpointNames<P> = P extends { endpoints: infer E } ? keyof E & string : never;
type KeyNames<P> = P extends { keys: infer K } ? keyof K & string : never;

/** Base URLs of the upstream services, by endpoint name; tests point them at local servers. */
export type Endpoints = Record<EndpointNames<Provider>, string>;
/** API keys, read from the host environment only; never written to disk or passed to containers. */
export type ProviderKeys = Partial<Record<KeyNames<Provider>, string>>;

/** The providers by name, built-in and a plugin's (live: tables below follow each one added). */
export const TOOL_PROVIDERS = new Registry<ProviderSpec>('tool provider', (p) => p.name);

export const PROVIDERS = {} as { readonly [N in ProviderName]: Extract<Provider, { name: N }> };

export const DEFAULT_ENDPOINTS = {} as Endpoints;

/** Conservative per-upstream defaults of the HTTP client (public free APIs get a rate limit; the code model gets time to think). */
export const DEFAULT_PROVIDER_LIMITS: Record<string, Partial<ProviderLimits>> = {};

TOOL_PROVIDERS.onAdd(({ entry }) => {
  (PROVIDERS as Record<string, ProviderSpec>)[entry.name] = entry;
  Object.assign(DEFAULT_ENDPOINTS, entry.endpoints);
  Object.assign(DEFAULT_PROVIDER_LIMITS, entry.limits);
});
for (const provider of PROVIDER_LIST) TOOL_PROVIDERS.add(provider);

/** Why a provider cannot be registered (its name, an endpoint name or a limits key is another provider's), or undefined. */
export function providerClash(provider: ProviderSpec): string | undefined {
  if (TOOL_PROVIDERS.has(provider.name)) return `tool provider '${provider.name}' is already registered by ${TOOL_PROVIDERS.fromOf(provider.name)}`;
  const endpoint = Object.keys(provider.endpoints).find((e) => e in DEFAULT_ENDPOINTS);
  if (endpoint) return `tool provider '${provider.name}': its endpoint '${endpoint}' is another provider's`;
  const limit = Object.keys(provider.limits ?? {}).find((l) => l in DEFAULT_PROVIDER_LIMITS);
  return limit && `tool provider '${provider.name}': its limits key '${limit}' is another provider's`;
}

/** Registers a provider (a plugin's): its name, endpoint names and limit keys must be new. */
export function addToolProvider(provider: ProviderSpec, from: string = BUILT_IN): void {
  const clash = providerClash(provider);
  if (clash) throw new Error(`${clash} (${from})`);
  TOOL_PROVIDERS.add(provider, from);
}

/** The host variables holding a provider's keys (none for most). */
export const providerKeyVars = (name: ProviderName): string[] => Object.values(TOOL_PROVIDERS.find(name)?.keys ?? {});

export function keysFromEnv(env: NodeJS.ProcessEnv = process.env): ProviderKeys {
  const keys: Record<string, string | undefined> = {};
  for (const p of TOOL_PROVIDERS.entries) for (const [key, variable] of Object.entries(p.keys ?? {})) keys[key] = env[variable] || undefined;
  return keys as ProviderKeys;
}
