import { hostSecrets } from '../../common/secrets.js';
import { findTool, type ProviderName, type ToolDefinition } from '../catalog/index.js';
import { FetchHttpClient, type HttpClientOptions } from './http.js';
import { DEFAULT_ENDPOINTS, keysFromEnv, providerKeyVars, PROVIDERS, type Endpoints, type ProviderKeys } from './index.js';
import type { HttpClient, ProviderContext, ToolResult } from './types.js';

export { PROVIDERS };

/**
 * The provider a tool's definition names (given by name, aliases such as serper_search followed; undefined
 * for an unknown name). python_execute_code has none on purpose: it runs inside the trial container, never
 * on the host; game tools are served by the trial's own session.
 */
export function providerFor(tool: string | Pick<ToolDefinition, 'provider'>): (typeof PROVIDERS)[ProviderName] | undefined {
  const provider = (typeof tool === 'string' ? findTool(tool) : tool)?.provider;
  return provider && provider !== 'trial-session' ? PROVIDERS[provider] : undefined;
}

/** Runs a call of a host tool (arguments checked) by its definition's `run`, over its provider's transport. */
export async function runOnHost(tool: ToolDefinition, args: Record<string, unknown>, ctx: ProviderContext): Promise<ToolResult> {
  return tool.run ? tool.run(args, ctx) : { ok: false, text: `Error: no provider serves ${tool.name}` };
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
  const keys = options.keys ?? keysFromEnv(options.env ?? process.env);
  // Whatever comes back from a provider is masked by them before the agent, a log or the store sees it.
  hostSecrets.add(...Object.values(keys));
  return {
    endpoints: { ...DEFAULT_ENDPOINTS, ...options.endpoints },
    keys,
    http: options.http ?? new FetchHttpClient(options.httpOptions),
    ...(options.codeModel ? { codeModel: options.codeModel } : {}),
  };
}

/** The host key variables that live calls of these tools need and `env` lacks, each with the tools needing it. */
export function missingToolKeys(tools: readonly string[], env: NodeJS.ProcessEnv = process.env): { variable: string; tools: string[] }[] {
  const missing = new Map<string, string[]>();
  for (const tool of tools) {
    const provider = findTool(tool)?.provider;
    const variables = provider && provider !== 'trial-session' ? providerKeyVars(provider) : [];
    for (const variable of variables) if (!env[variable]) missing.set(variable, [...(missing.get(variable) ?? []), tool]);
  }
  return [...missing].map(([variable, needing]) => ({ variable, tools: needing }));
}
