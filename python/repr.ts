/**
 * The Python value model, and Python's `repr()`, `str()` and truthiness over it.
 *
 * - Python int   -> bigint (always, so 20 and 20.0 stay apart)
 * - Python float -> number (always, integral or not: 20.0 is the number 20)
 * - str -> string; True/False -> boolean; None -> null
 * - list -> array; dict -> Map<string, PyValue> (keeps Python's insertion order)
 *
 * Data read with the native JSON.parse enters this model through one conversion, `fromNativeJson`
 * (json-parse.ts): an integral number is an int, an object a dict. It is exact wherever the text had no
 * integral float and no integer-like key; the verifier checks that before it takes that fast path.
 */
import { pyFloatRepr } from './floats.js';
import { isPyPrintable } from './unicode.js';

export type PyValue = string | number | bigint | boolean | null | PyValue[] | Map<string, PyValue>;

const HEX = '0123456789abcdef';

function hexEscape(prefix: string, cp: number, width: number): string {
  let s = '';
  for (let i = width - 1; i >= 0; i--) s += HEX[(cp >>> (4 * i)) & 15];
  return prefix + s;
}

// Printable ASCII without quote or backslash: nothing to escape.
const PLAIN_ASCII = /^[\x20-\x26\x28-\x5b\x5d-\x7e]*$/;

/** `repr(s)` of a str: Python's quote choice ("'" unless the text has ' and no "), escapes as CPython. */
export function pyStrRepr(s: string): string {
  if (PLAIN_ASCII.test(s)) return `'${s}'`;
  const quote = s.indexOf("'") !== -1 && s.indexOf('"') === -1 ? '"' : "'";
  const q = quote.charCodeAt(0);
  let out = quote;
  for (let i = 0; i < s.length; ) {
    const cp = s.codePointAt(i) as number;
    const ch = cp > 0xffff ? s.slice(i, i + 2) : s[i];
    i += ch.length;
    if (cp === q || cp === 0x5c) out += '\\' + ch;
    else if (cp === 0x09) out += '\\t';
    else if (cp === 0x0a) out += '\\n';
    else if (cp === 0x0d) out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += hexEscape('\\x', cp, 2);
    else if (cp < 0x7f || isPyPrintable(cp)) out += ch;
    else if (cp <= 0xff) out += hexEscape('\\x', cp, 2);
    else if (cp <= 0xffff) out += hexEscape('\\u', cp, 4);
    else out += hexEscape('\\U', cp, 8);
  }
  return out + quote;
}

/** `repr(v)`. */
export function pyRepr(v: PyValue): string {
  switch (typeof v) {
    case 'string':
      return pyStrRepr(v);
    case 'number':
      return pyFloatRepr(v);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'True' : 'False';
    case 'object': {
      if (v === null) return 'None';
      if (Array.isArray(v)) return '[' + v.map(pyRepr).join(', ') + ']';
      const parts: string[] = [];
      for (const [k, val] of v) parts.push(`${pyRepr(k)}: ${pyRepr(val)}`);
      return '{' + parts.join(', ') + '}';
    }
    default:
      throw new TypeError(`not a Python value: ${String(v)}`);
  }
}

/** `str(v)`: the str itself for a str, otherwise the same as repr (containers repr their items). */
export function pyStr(v: PyValue): string {
  return typeof v === 'string' ? v : pyRepr(v);
}

/** `bool(v)`; `undefined` stands for an absent key (e.g. the default of `d.get(k)`) and is falsy. */
export function pyTruthy(v: PyValue | undefined): boolean {
  if (v === undefined || v === null) return false;
  switch (typeof v) {
    case 'string':
      return v.length > 0;
    case 'number':
      return v !== 0; // NaN is truthy in Python, and NaN !== 0
    case 'bigint':
      return v !== 0n;
    case 'boolean':
      return v;
    default:
      return Array.isArray(v) ? v.length > 0 : v.size > 0;
  }
}
