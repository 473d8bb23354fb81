import { createHash } from 'node:crypto';
import { canonicalPage } from '../wikipedia/page-identity.js';

/**
 * The identity of a tool call for caching and record/replay: the tool's catalog name and its arguments
 * after the catalog's normalisation, written canonically (keys sorted, text trimmed with runs of white
 * space collapsed, a fetched URL written as the page it names), so that calls asking for the same thing
 * share one stored response.
 */
export interface CallIdentity {
  tool: string;
  /** Canonical JSON of the arguments. */
  args: string;
  /** sha256 of `tool` and `args`, hex. */
  key: string;
}

function canonicalValue(value: unknown): unknown {
  if (typeof value === 'string') return value.trim().replace(/\s+/g, ' ');
  if (Array.isArray(value)) return value.map(canonicalValue);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .sort()
        .map((k) => [k, canonicalValue((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

/** A URL as the page it opens: `https://en.wikipedia.org/wiki/Black_Sea` for every spelling of that page. */
export function canonicalUrl(url: string): string {
  const page = canonicalPage(url);
  if (!page) return url.trim();
  const wiki = /^([a-z0-9-]+\.wikipedia\.org)\/wiki\/(.*)$/.exec(page);
  if (wiki) return `https://${wiki[1]}/wiki/${wiki[2].replace(/ /g, '_')}`;
  const parsed = new URL(url.trim());
  parsed.hash = '';
  return parsed.toString();
}

export function callIdentity(tool: string, normalizedArgs: Record<string, unknown>): CallIdentity {
  const args = canonicalValue(normalizedArgs) as Record<string, unknown>;
  if (tool === 'fetch_webpage' && typeof args.url === 'string') args.url = canonicalUrl(args.url);
  const text = JSON.stringify(args);
  return { tool, args: text, key: createHash('sha256').update(`${tool}\n${text}`).digest('hex') };
}
