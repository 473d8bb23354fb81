import { binance } from './binance.js';
import type { ProviderLimits } from './define.js';
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

export const PROVIDERS = Object.fromEntries(PROVIDER_LIST.map((p) => [p.name, p])) as { readonly [N in ProviderName]: Extract<Provider, { name: N }> };

export const DEFAULT_ENDPOINTS: Endpoints = Object.assign({}, ...PROVIDER_LIST.map((p) => p.endpoints));

/** Conservative per-upstream defaults of the HTTP client (public free APIs get a rate limit; the code model gets time to think). */
export const DEFAULT_PROVIDER_LIMITS: Readonly<Record<string, Partial<ProviderLimits>>> = Object.assign({}, ...PROVIDER_LIST.map((p) => p.limits));

/** The host variables holding a provider's keys (none for most). */
export const providerKeyVars = (name: ProviderName): string[] => Object.values((PROVIDERS[name] as { keys?: Record<string, string> }).keys ?? {});

export function keysFromEnv(env: NodeJS.ProcessEnv = process.env): ProviderKeys {
  const keys: Record<string, string | undefined> = {};
  for (const p of PROVIDER_LIST) for (const [key, variable] of Object.entries((p as { keys?: Record<string, string> }).keys ?? {})) keys[key] = env[variable] || undefined;
  return keys as ProviderKeys;
}
