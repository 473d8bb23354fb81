import type { ServerResponse } from 'node:http';

/** The model APIs the gateway proxies. */
export type ModelApi = 'anthropic-messages' | 'anthropic-count-tokens' | 'openai-responses' | 'openai-chat';
export type ModelProvider = 'anthropic' | 'openai';

export interface ModelRoute {
  api: ModelApi;
  provider: ModelProvider;
  /** A model turn: counted in the trial's usage and held to its budget (count_tokens is not). */
  counted: boolean;
  upstreamUrl: string;
}

export interface UpstreamBases {
  anthropicBaseUrl: string;
  openaiBaseUrl: string;
}

const ROUTES: { path: string; api: ModelApi; provider: ModelProvider; counted: boolean; upstreamPath: string }[] = [
  { path: '/anthropic/v1/messages', api: 'anthropic-messages', provider: 'anthropic', counted: true, upstreamPath: '/v1/messages' },
  { path: '/anthropic/v1/messages/count_tokens', api: 'anthropic-count-tokens', provider: 'anthropic', counted: false, upstreamPath: '/v1/messages/count_tokens' },
  { path: '/openai/v1/responses', api: 'openai-responses', provider: 'openai', counted: true, upstreamPath: '/responses' },
  { path: '/openai/v1/chat/completions', api: 'openai-chat', provider: 'openai', counted: true, upstreamPath: '/chat/completions' },
];

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/**
 * The route of a gateway URL (`/anthropic/v1/messages?beta=true` ...) with its upstream URL, query kept.
 * Anthropic's base URL has no /v1 (as ANTHROPIC_BASE_URL); OpenAI's includes it (as OPENAI_BASE_URL).
 */
export function resolveRoute(method: string | undefined, url: string, bases: UpstreamBases): ModelRoute | undefined {
  const q = url.indexOf('?');
  const path = (q < 0 ? url : url.slice(0, q)).replace(/\/+$/, '');
  const query = q < 0 ? '' : url.slice(q);
  const route = ROUTES.find((r) => r.path === path);
  if (!route || method !== 'POST') return undefined;
  const base = trimSlash(route.provider === 'anthropic' ? bases.anthropicBaseUrl : bases.openaiBaseUrl);
  return { api: route.api, provider: route.provider, counted: route.counted, upstreamUrl: base + route.upstreamPath + query };
}

export const providerOfPath = (url: string): ModelProvider => (url.startsWith('/anthropic/') ? 'anthropic' : 'openai');

/** An error body in the provider's own shape, so the framework shows it as the API's error. */
export function errorBody(provider: ModelProvider, type: string, message: string, code?: string): unknown {
  if (provider === 'anthropic') return { type: 'error', error: { type, message } };
  return { error: { message, type, code: code ?? null, param: null } };
}

export function sendModelError(res: ServerResponse, provider: ModelProvider, status: number, type: string, message: string, code?: string): void {
  const text = JSON.stringify(errorBody(provider, type, message, code));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
