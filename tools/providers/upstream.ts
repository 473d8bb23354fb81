import { errorResult } from './formats.js';
import { isRetryableStatus } from '../retry.js';
import type { HttpRequest, HttpResponse, ProviderContext, ToolResult } from './types.js';

/** Either the parsed JSON body of a 2xx answer, or the Error result to return. */
export type JsonOutcome<T> = { ok: true; data: T; response: HttpResponse } | { ok: false; result: ToolResult; status?: number; body?: unknown };

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}...` : s);

/** The message an upstream put in an error body (the field names of the APIs used here), else the body's start. */
export function upstreamMessage(text: string): string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return clip(text.replace(/\s+/g, ' ').trim());
  }
  const o = (body && typeof body === 'object' ? body : {}) as Record<string, any>;
  const candidates = [
    o.error?.message, o.error?.info, o.error?.description, o.chart?.error?.description, o.finance?.error?.description,
    o.error_message, o.message, o.msg, o.reason, typeof o.error === 'string' ? o.error : undefined,
  ];
  const found = candidates.find((c) => typeof c === 'string' && c.trim() !== '');
  return found ? clip(found) : clip(text);
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * Sends a request through the context's HTTP client and parses the JSON answer. `what` names the call in
 * messages ("Google Geocoding request"). Network failures, non-2xx answers and invalid JSON become Error
 * results; a non-2xx answer's parsed body is passed along for providers that read it.
 */
export async function requestJson<T>(ctx: ProviderContext, provider: string, req: HttpRequest, what: string): Promise<JsonOutcome<T>> {
  let response: HttpResponse;
  try {
    response = await ctx.http.request(provider, req);
  } catch (err) {
    const message = (err as Error).message;
    const attempts = (err as { attempts?: number }).attempts;
    const tries = attempts && attempts > 1 ? ` (after ${attempts} attempts)` : '';
    return { ok: false, result: errorResult(`${what} failed: ${message}${tries}`, message, { transient: true }) };
  }
  const parsed = parseJson(response.text);
  if (response.status < 200 || response.status >= 300) {
    const tries = response.attempts && response.attempts > 1 ? ` after ${response.attempts} attempts` : '';
    const detail = upstreamMessage(response.text);
    return {
      ok: false,
      status: response.status,
      body: parsed.ok ? parsed.value : undefined,
      result: errorResult(`${what} failed with HTTP ${response.status}${tries}: ${detail}`, `HTTP ${response.status}: ${clip(response.text, 1000)}`, {
        transient: isRetryableStatus(response.status),
      }),
    };
  }
  if (!parsed.ok) return { ok: false, result: errorResult(`${what} returned a body that is not JSON`, clip(response.text, 1000)) };
  return { ok: true, data: parsed.value as T, response };
}
