/**
 * `json.dumps(v)` / `json.dumps(v, indent=n)` / `json.dump(v, f, indent=n)` of CPython 3.11 with the default
 * options (ensure_ascii=True, allow_nan=True, sort_keys=False, separators per indent) over the value model.
 */
import { pyFloatRepr } from './floats.js';
import { type PyValue } from './values.js';

const HEX = '0123456789abcdef';
// Characters json writes as themselves: printable ASCII except '"' and '\'.
const PLAIN = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;

/** `json.encoder.encode_basestring_ascii(s)`: quoted, non-ASCII as \uXXXX (lowercase hex, UTF-16 units). */
export function pyJsonString(s: string): string {
  if (PLAIN.test(s)) return `"${s}"`;
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, i);
    start = i + 1;
    switch (c) {
      case 0x22: out += '\\"'; break;
      case 0x5c: out += '\\\\'; break;
      case 0x08: out += '\\b'; break;
      case 0x0c: out += '\\f'; break;
      case 0x0a: out += '\\n'; break;
      case 0x0d: out += '\\r'; break;
      case 0x09: out += '\\t'; break;
      default: out += '\\u' + HEX[c >>> 12] + HEX[(c >>> 8) & 15] + HEX[(c >>> 4) & 15] + HEX[c & 15];
    }
  }
  return out + s.slice(start) + '"';
}

function floatStr(x: number): string {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return pyFloatRepr(x);
}

function scalar(v: PyValue): string | undefined {
  switch (typeof v) {
    case 'string':
      return pyJsonString(v);
    case 'number':
      return floatStr(v);
    case 'bigint':
      return v.toString();
    case 'boolean':
      return v ? 'true' : 'false';
    case 'object':
      if (v === null) return 'null';
      return undefined;
    default:
      throw new TypeError(`Object of type ${typeof v} is not JSON serializable`);
  }
}

function compact(v: PyValue): string {
  const s = scalar(v);
  if (s !== undefined) return s;
  if (Array.isArray(v)) return '[' + v.map(compact).join(', ') + ']';
  const parts = [...(v as Map<string, PyValue>)].map(([k, val]) => `${pyJsonString(k)}: ${compact(val)}`);
  return '{' + parts.join(', ') + '}';
}

function indented(v: PyValue, unit: string, level: number): string {
  const s = scalar(v);
  if (s !== undefined) return s;
  const inner = '\n' + unit.repeat(level + 1);
  const outer = '\n' + unit.repeat(level);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return '[' + inner + v.map((x) => indented(x, unit, level + 1)).join(',' + inner) + outer + ']';
  }
  const entries = [...(v as Map<string, PyValue>)];
  if (entries.length === 0) return '{}';
  const parts = entries.map(([k, val]) => `${pyJsonString(k)}: ${indented(val, unit, level + 1)}`);
  return '{' + inner + parts.join(',' + inner) + outer + '}';
}

/**
 * `json.dumps(v, indent=indent)`: without indent, separators ', ' and ': ' on one line; with an int indent
 * (or a str), ',' + newline + indentation and ': ' (indent 0 or negative: newlines without indentation).
 * Floats as repr() ('1.0', '1e-05'), NaN/Infinity/-Infinity; `json.dump(v, f, indent=2)` writes the same text.
 */
export function pyJsonDumps(v: PyValue, indent?: number | string | null): string {
  if (indent === undefined || indent === null) return compact(v);
  const unit = typeof indent === 'string' ? indent : ' '.repeat(Math.max(0, Math.trunc(indent)));
  return indented(v, unit, 0);
}
