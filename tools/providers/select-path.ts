/**
 * Resolves weather `select` paths such as `daily.sunshine_duration[0]` against a JSON value, as the weather
 * tool of the golden values resolved them: dot-separated segments, each a key optionally followed by `[index]`
 * (negative indexes count from the end, as in Python). A path that leads nowhere (an unknown key, an index out
 * of range, a key asked of a list) gives null for that path, never an error for the whole call. Inside a
 * segment, a bracket that is not `[integer]` ends the segment there (`daily[x]` reads as `daily`).
 */

type Token = string | number;

function segmentTokens(segment: string): Token[] {
  const tokens: Token[] = [];
  let key = '';
  for (let i = 0; i < segment.length; i++) {
    if (segment[i] !== '[') {
      key += segment[i];
      continue;
    }
    if (key) tokens.push(key);
    key = '';
    const close = segment.indexOf(']', i);
    const index = close === -1 ? '' : segment.slice(i + 1, close).trim();
    if (!/^[+-]?\d+$/.test(index)) return tokens;
    tokens.push(Number(index));
    i = close;
  }
  if (key) tokens.push(key);
  return tokens;
}

/** The value at `path`, or null. */
export function selectPath(data: unknown, path: string): unknown {
  let current: unknown = data;
  for (const segment of path.split('.')) {
    if (segment === '') return null;
    for (const token of segmentTokens(segment)) {
      if (current === null || current === undefined) return null;
      if (typeof token === 'number') {
        // A string is indexed by character, as in Python.
        const items: unknown[] | undefined = Array.isArray(current) ? current : typeof current === 'string' ? [...current] : undefined;
        if (!items) return null;
        const index = token < 0 ? items.length + token : token;
        if (index < 0 || index >= items.length) return null;
        current = items[index];
      } else {
        if (typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, token)) return null;
        current = (current as Record<string, unknown>)[token];
      }
    }
  }
  return current === undefined ? null : current;
}

/** Each selector mapped to its value (null where it leads nowhere), in the order given. */
export function selectPaths(data: unknown, selectors: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(selectors.map((s) => [s, selectPath(data, s)]));
}
