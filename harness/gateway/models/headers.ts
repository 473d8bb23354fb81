import type { IncomingHttpHeaders } from 'node:http';
import { modelApi } from './apis/registry.js';
import type { ModelProvider } from './routes.js';

/** Hop-by-hop headers (RFC 9110 7.6.1) and those node or fetch set themselves. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
/** Credentials (the trial token arrives in one of these) and headers recomputed for the upstream. */
const NOT_FORWARDED = new Set(['host', 'content-length', 'authorization', 'x-api-key', 'accept-encoding', 'cookie', 'expect', 'forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-real-ip']);

function connectionTokens(value: string | string[] | undefined): Set<string> {
  const text = Array.isArray(value) ? value.join(',') : (value ?? '');
  return new Set(text.split(',').map((t) => t.trim().toLowerCase()).filter(Boolean));
}

/**
 * The headers sent upstream: the client's (anthropic-version, anthropic-beta, content-type, user-agent,
 * openai-beta ...) minus hop-by-hop headers and the trial token, plus the host's real key in the API's own header.
 */
export function upstreamHeaders(incoming: IncomingHttpHeaders, provider: ModelProvider, apiKey: string): Record<string, string> {
  const dropped = connectionTokens(incoming.connection);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming)) {
    const lower = name.toLowerCase();
    if (value === undefined || HOP_BY_HOP.has(lower) || NOT_FORWARDED.has(lower) || dropped.has(lower)) continue;
    out[lower] = Array.isArray(value) ? value.join(', ') : value;
  }
  out['accept-encoding'] = 'identity';
  return { ...out, ...modelApi(provider).authHeaders(apiKey) };
}

/** The upstream response headers relayed to the client (fetch has already decoded any content-encoding). */
export function clientHeaders(upstream: Headers): Record<string, string> {
  const dropped = connectionTokens(upstream.get('connection') ?? undefined);
  const out: Record<string, string> = {};
  upstream.forEach((value, name) => {
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || dropped.has(lower) || lower === 'content-length' || lower === 'content-encoding' || lower === 'set-cookie') return;
    out[lower] = value;
  });
  return out;
}
