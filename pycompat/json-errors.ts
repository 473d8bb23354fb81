/** The exceptions `json.loads` raises (CPython 3.11 messages and positions), and the exact string scanner. */

/** Index into a Python str (code points) of the UTF-16 index i of s. */
function pyIndex(s: string, i: number): number {
  let n = i;
  for (let k = 1; k < i; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0xdc00 && c <= 0xdfff) {
      const h = s.charCodeAt(k - 1);
      if (h >= 0xd800 && h <= 0xdbff) n--;
    }
  }
  return n;
}

/** json.JSONDecodeError: msg, doc, pos (Python index), lineno, colno; message formatted as Python's. */
export class PyJSONDecodeError extends SyntaxError {
  override name = 'JSONDecodeError';
  readonly pos: number;
  readonly lineno: number;
  readonly colno: number;
  constructor(
    readonly msg: string,
    readonly doc: string,
    index: number,
  ) {
    const pos = pyIndex(doc, index);
    let lineno = 1;
    for (let k = doc.indexOf('\n'); k !== -1 && k < index; k = doc.indexOf('\n', k + 1)) lineno++;
    const nl = index === 0 ? -1 : doc.lastIndexOf('\n', index - 1);
    const colno = nl === -1 ? pos + 1 : pos - pyIndex(doc, nl);
    super(`${msg}: line ${lineno} column ${colno} (char ${pos})`);
    this.pos = pos;
    this.lineno = lineno;
    this.colno = colno;
  }
}

/** A ValueError that is not a JSONDecodeError (e.g. int literal over sys.get_int_max_str_digits()). */
export class PyValueError extends Error {
  override name = 'ValueError';
}

/** Python's RecursionError for too deeply nested documents. */
export class PyRecursionError extends RangeError {
  override name = 'RecursionError';
}

function hexValue(c: number): number {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x57;
  if (c >= 0x41 && c <= 0x46) return c - 0x37;
  return -1;
}

/**
 * Direct port of CPython's scanstring_unicode (strict): the string whose opening quote is at `quote`, and the
 * index after its closing quote. Used by the parser only when its fast path fails, to raise Python's exact error.
 * Surrogate-pair escapes need no joining: in UTF-16 the two decoded units already are the astral character.
 */
export function scanStringPy(s: string, quote: number): { value: string; end: number } {
  const fail = (msg: string, index: number): never => {
    throw new PyJSONDecodeError(msg, s, index);
  };
  const len = s.length;
  let out = '';
  let i = quote + 1;
  for (;;) {
    let next = i;
    let c = 0;
    for (; next < len; next++) {
      c = s.charCodeAt(next);
      if (c === 0x22 || c === 0x5c) break;
      if (c < 0x20) fail('Invalid control character at', next);
    }
    if (next >= len) fail('Unterminated string starting at', quote);
    out += s.slice(i, next);
    if (c === 0x22) return { value: out, end: next + 1 };
    const e = next + 1;
    if (e >= len) fail('Unterminated string starting at', quote);
    const esc = s.charCodeAt(e);
    if (esc === 0x75) {
      if (e + 5 >= len) fail('Invalid \\uXXXX escape', e);
      let code = 0;
      for (let k = e + 1; k <= e + 4; k++) {
        const h = hexValue(s.charCodeAt(k));
        if (h < 0) fail('Invalid \\uXXXX escape', e);
        code = code * 16 + h;
      }
      out += String.fromCharCode(code);
      i = e + 5;
      continue;
    }
    const simple = SIMPLE_ESCAPES[esc];
    if (simple === undefined) fail('Invalid \\escape', next);
    out += simple;
    i = e + 1;
  }
}

const SIMPLE_ESCAPES: Record<number, string> = {
  0x22: '"',
  0x5c: '\\',
  0x2f: '/',
  0x62: '\b',
  0x66: '\f',
  0x6e: '\n',
  0x72: '\r',
  0x74: '\t',
};
