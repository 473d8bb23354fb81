import { findTool, type ProviderName, type ToolDefinition } from '../catalog/index.js';
import { binanceProvider } from './binance.js';
import { codeModelProvider } from './code-model.js';
import { googleMapsProvider } from './google-maps.js';
import { FetchHttpClient, type HttpClientOptions } from './http.js';
import { openMeteoProvider } from './open-meteo.js';
import { restCountriesProvider } from './rest-countries.js';
import { serperProvider } from './serper.js';
import { DEFAULT_ENDPOINTS, keysFromEnv, PROVIDER_KEY_VARS, type Endpoints, type HttpClient, type ProviderContext, type ProviderKeys, type ToolProvider, type ToolResult } from './types.js';
import { webProvider } from './web.js';
import { yahooFinanceProvider } from './yahoo-finance.js';

/** The live providers by name. Together they serve every catalog tool that runs on the host. */
export const PROVIDERS: Readonly<Record<ProviderName, ToolProvider>> = {
  web: webProvider,
  serper: serperProvider,
  'google-maps': googleMapsProvider,
  'open-meteo': openMeteoProvider,
  'rest-countries': restCountriesProvider,
  'yahoo-finance': yahooFinanceProvider,
  binance: binanceProvider,
  'code-model': codeModelProvider,
};

/**
 * The provider a tool's definition names (given by name, aliases such as serper_search followed; undefined
 * for an unknown name). python_execute_code has none on purpose: it runs inside the trial container, never
 * on the host; game tools are served by the trial's own session.
 */
export function providerFor(tool: string | Pick<ToolDefinition, 'provider'>): ToolProvider | undefined {
  const provider = (typeof tool === 'string' ? findTool(tool) : tool)?.provider;
  return provider && provider !== 'trial-session' ? PROVIDERS[provider] : undefined;
}

/** Runs a call of a host tool (arguments checked): by the tool's own `run` when it has one, else by its provider. */
export async function runOnHost(tool: ToolDefinition, args: Record<string, unknown>, ctx: ProviderContext): Promise<ToolResult> {
  if (tool.run) return tool.run(args, ctx);
  const provider = providerFor(tool);
  return provider ? provider.call(tool.name, args, ctx) : { ok: false, text: `Error: no provider serves ${tool.name}` };
}

export interface ProviderContextOptions {
  /** Overrides of DEFAULT_ENDPOINTS (tests point them at local servers). */
  endpoints?: Partial<Endpoints>;
  /** API keys; default: read from `env` (GOOGLE_API_KEY, SERPER_API_KEY, OPENAI_API_KEY). */
  keys?: ProviderKeys;
  env?: NodeJS.ProcessEnv;
  /** An HTTP client to share; default: a new FetchHttpClient with `httpOptions`. */
  http?: HttpClient;
  httpOptions?: HttpClientOptions;
  /** Model for python_generate_code (the provider's default is gpt-4o-mini). */
  codeModel?: string;
}

/** What providers need for a job: endpoints, host keys and one HTTP client (its limits span all trials). */
export function createProviderContext(options: ProviderContextOptions = {}): ProviderContext {
  return {
    endpoints: { ...DEFAULT_ENDPOINTS, ...options.endpoints },
    keys: options.keys ?? keysFromEnv(options.env ?? process.env),
    http: options.http ?? new FetchHttpClient(options.httpOptions),
    ...(options.codeModel ? { codeModel: options.codeModel } : {}),
  };
}

/** The host key variables that live calls of these tools need and `env` lacks, each with the tools needing it. */
export function missingToolKeys(tools: readonly string[], env: NodeJS.ProcessEnv = process.env): { variable: string; tools: string[] }[] {
  const missing = new Map<string, string[]>();
  for (const tool of tools) {
    const provider = findTool(tool)?.provider;
    const variable = provider && provider !== 'trial-session' ? PROVIDER_KEY_VARS[provider] : undefined;
    if (variable && !env[variable]) missing.set(variable, [...(missing.get(variable) ?? []), tool]);
  }
  return [...missing].map(([variable, needing]) => ({ variable, tools: needing }));
}
