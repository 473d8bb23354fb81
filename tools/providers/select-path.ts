/**
 * Resolves `select` paths such as `daily.sunshine_duration[0]` against a JSON value: dot-separated keys,
 * each optionally followed by `[index]` (a bare numeric segment, `daily.time.0`, indexes too).
 */

export type SelectOutcome = { ok: true; values: Record<string, unknown> } | { ok: false; error: string };

type Token = string | number;

function tokenize(path: string): Token[] | undefined {
  const tokens: Token[] = [];
  for (const segment of path.trim().split('.')) {
    const m = /^([^[\]]*)((?:\[-?\d+\])*)$/.exec(segment);
    if (!m || (m[1] === '' && m[2] === '')) return undefined;
    if (m[1] !== '') tokens.push(/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]);
    for (const idx of m[2].matchAll(/\[(-?\d+)\]/g)) tokens.push(Number(idx[1]));
  }
  return tokens;
}

const describe = (tokens: Token[]) => tokens.map((t, i) => (typeof t === 'number' ? `[${t}]` : i === 0 ? t : `.${t}`)).join('') || '(root)';

function resolve(data: unknown, path: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const tokens = tokenize(path);
  if (!tokens) return { ok: false, error: `select path "${path}" is malformed; use dotted keys and [index], e.g. daily.time[0]` };
  let current: unknown = data;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    const where = describe(tokens.slice(0, i));
    if (typeof token === 'number') {
      if (!Array.isArray(current)) return { ok: false, error: `select path "${path}": ${where} is not a list` };
      const index = token < 0 ? current.length + token : token;
      if (index < 0 || index >= current.length) {
        return { ok: false, error: `select path "${path}": index ${token} is out of range (${where} has ${current.length} items)` };
      }
      current = current[index];
    } else {
      if (!current || typeof current !== 'object' || Array.isArray(current)) {
        return { ok: false, error: `select path "${path}": ${where} has no key "${token}"` };
      }
      const obj = current as Record<string, unknown>;
      if (!(token in obj)) {
        return { ok: false, error: `select path "${path}": ${where} has no key "${token}"; available keys: ${Object.keys(obj).join(', ')}` };
      }
      current = obj[token];
    }
  }
  return { ok: true, value: current };
}

/** Maps each selector to its value; the first unknown path is an error naming the keys available there. */
export function selectPaths(data: unknown, selectors: readonly string[]): SelectOutcome {
  const values: Record<string, unknown> = {};
  for (const selector of selectors) {
    const r = resolve(data, selector);
    if (!r.ok) return r;
    values[selector] = r.value;
  }
  return { ok: true, values };
}
