/**
 * Page identity. `referenceNormalizeUrl` is the reference verifier's rule, quirks included (it only
 * folds the English mobile host, and cuts at "?" before "#"). `canonicalPage` is ours, for PVR: two URLs
 * that open the same page get the same key.
 */

/**
 * `compute`, remembering its results: a tool log names the same page several times (url, resolved_url and
 * args.url of one call, refetches), and a job's trials share pages, so most URLs are worked out once.
 */
// Stryker disable all: a cache; its mutants change only memory and speed, never a result.
function memoized<T extends string | null>(compute: (url: string) => T, limit = 50_000): (url: string) => T {
  const known = new Map<string, T>();
  return (url) => {
    let value = known.get(url);
    if (value === undefined) {
      if (known.size >= limit) known.clear();
      value = compute(url);
      known.set(url, value);
    }
    return value;
  };
}
// Stryker restore all

export const referenceNormalizeUrl = memoized(function referenceNormalizeUrl(url: string): string {
  let u = url.replace(/\/+$/, '');
  u = u.split('://en.m.wikipedia').join('://en.wikipedia');
  u = u.split('?')[0];
  return u.split('#')[0];
});

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
}

/** MediaWiki titles: spaces and underscores are the same, the first letter is case-insensitive. */
function canonicalTitle(decoded: string): string {
  const t = decoded.replace(/\/+$/, '').replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
  if (!t) return t;
  const first = String.fromCodePoint(t.codePointAt(0)!);
  return first.toUpperCase() + t.slice(first.length);
}

/**
 * A key for the page a URL opens: scheme dropped, host lower-cased with a mobile `m.` folded, Wikipedia
 * pages as `<lang>.wikipedia.org/wiki/<Title>` (also from `/w/index.php?title=`), fragment and query
 * dropped, trailing slashes dropped. Returns null for text that is not an http(s) URL.
 */
export const canonicalPage = memoized(computeCanonicalPage);

function computeCanonicalPage(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  let host = parsed.hostname.toLowerCase().replace(/^www\./, '');
  const wiki = /^([a-z0-9-]+)\.(?:m\.)?wikipedia\.org$/.exec(host);
  if (wiki) {
    host = `${wiki[1]}.wikipedia.org`;
    let title: string | null = null;
    if (parsed.pathname.startsWith('/wiki/')) title = safeDecode(parsed.pathname.slice('/wiki/'.length));
    else if (parsed.pathname === '/w/index.php') title = parsed.searchParams.get('title');
    if (title !== null) return `${host}/wiki/${canonicalTitle(title)}`;
  } else {
    host = host.replace(/^m\./, '');
  }
  const path = safeDecode(parsed.pathname).replace(/\/+$/, '');
  return `${host}${path}`;
}
