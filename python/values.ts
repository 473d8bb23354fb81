/**
 * The value model shared by the Python ports, and Python's `repr()`, `str()` and truthiness over it.
 *
 * - Python str   -> JS string
 * - Python int   -> JS number when it is a safe integer, else bigint (an integral JS number is an int)
 * - Python float -> JS number when it is not integral; `PyFloat` when integral (20.0, -0.0, 1e300, inf, nan),
 *                   so that str() gives "20.0" and not "20". NaN and +-Infinity as plain numbers are floats too.
 * - True/False   -> boolean; None -> null
 * - list         -> array; dict -> Map<string, PyValue> (keeps Python's insertion order), plain objects
 *                   accepted too (beware: JS puts integer-like keys of a plain object first).
 */
import { pyFloatRepr } from './floats.js';
import { isPyPrintable } from './unicode.js';

export class PyFloat {
  constructor(readonly value: number) {}
}

export type PyValue = string | number | bigint | boolean | null | PyFloat | PyValue[] | Map<string, PyValue> | { [k: string]: PyValue };

/** `str(n)` of an int given as a JS integral number or a bigint. */
export function pyIntStr(n: number | bigint): string {
  if (typeof n === 'bigint') return n.toString();
  return Number.isSafeInteger(n) ? String(n === 0 ? 0 : n) : BigInt(n).toString();
}

/** True when the value model says `v` is a Python float (PyFloat, non-integral number, nan, inf). */
export function isPyFloat(v: unknown): v is PyFloat | number {
  return v instanceof PyFloat || (typeof v === 'number' && !Number.isInteger(v));
}

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

function entriesOf(v: Map<string, PyValue> | { [k: string]: PyValue }): Iterable<[string, PyValue]> {
  return v instanceof Map ? v.entries() : Object.entries(v);
}

/** `repr(v)`. */
export function pyRepr(v: PyValue): string {
  switch (typeof v) {
    case 'string':
      return pyStrRepr(v);
    case 'number':
      return Number.isInteger(v) ? pyIntStr(v) : pyFloatRepr(v);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'True' : 'False';
    case 'object': {
      if (v === null) return 'None';
      if (v instanceof PyFloat) return pyFloatRepr(v.value);
      if (Array.isArray(v)) return '[' + v.map(pyRepr).join(', ') + ']';
      const parts: string[] = [];
      for (const [k, val] of entriesOf(v)) parts.push(`${pyRepr(k)}: ${pyRepr(val)}`);
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
      if (v instanceof PyFloat) return v.value !== 0;
      if (Array.isArray(v)) return v.length > 0;
      if (v instanceof Map) return v.size > 0;
      return Object.keys(v).length > 0;
  }
}
