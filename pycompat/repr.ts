/** Python's `repr()`, `str()` and `bool()` over the value model of values.ts. */
import { fromOrdinal } from './date.js';
import { pyFloatRepr } from './floats.js';
import { isPyPrintable } from './unicode.js';
import { Unsupported, rangeLength, typeName, type PyObject, type PyValue } from './values.js';

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

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** repr() (or str() when `asStr`) of a tagged object. */
function objectText(v: PyObject, asStr: boolean): string {
  switch (v.type) {
    case 'tuple':
      return v.items.length === 1 ? `(${pyRepr(v.items[0])},)` : `(${v.items.map(pyRepr).join(', ')})`;
    case 'set':
      if (v.items.length === 0) return 'set()';
      throw new Unsupported('str() of a non-empty set is not supported (its order depends on hashing)');
    case 'range':
      return v.step === 1n ? `range(${v.start}, ${v.stop})` : `range(${v.start}, ${v.stop}, ${v.step})`;
    case 'date': {
      const { year, month, day } = fromOrdinal(v.ordinal);
      return asStr ? `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}` : `datetime.date(${year}, ${month}, ${day})`;
    }
    case 'timedelta': {
      const d = v.days;
      if (!asStr) return d === 0n ? 'datetime.timedelta(0)' : `datetime.timedelta(days=${d})`;
      if (d === 0n) return '0:00:00';
      return `${d} day${d === 1n || d === -1n ? '' : 's'}, 0:00:00`;
    }
    default:
      throw new Unsupported(`str() of a ${typeName(v)} is not supported`);
  }
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
      if (!(v instanceof Map)) return objectText(v, false);
      const parts: string[] = [];
      for (const [k, val] of v) parts.push(`${pyRepr(k)}: ${pyRepr(val)}`);
      return '{' + parts.join(', ') + '}';
    }
    default:
      throw new TypeError(`not a Python value: ${String(v)}`);
  }
}

/** `str(v)`, as print() writes it: the str itself, a date as YYYY-MM-DD, otherwise repr (containers repr their items). */
export function pyStr(v: PyValue): string {
  if (typeof v === 'string') return v;
  if (v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map)) return objectText(v, true);
  return pyRepr(v);
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
  }
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof Map) return v.size > 0;
  switch (v.type) {
    case 'tuple':
    case 'set':
      return v.items.length > 0;
    case 'range':
      return rangeLength(v) > 0n;
    case 'timedelta':
      return v.days !== 0n;
    default:
      return true;
  }
}
