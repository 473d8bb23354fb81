/** JSON values (as JSON.parse gives them) as Python values, and their Python str(). */
import { pyRepr, pyStr } from './convert.js';
import { Unsupported, type PyValue } from '../values.js';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * A JSON value as the Python value json.loads would give, as far as JSON.parse lets us tell:
 * integral numbers become int (JSON.parse cannot tell 20 from 20.0), other numbers float.
 * Objects are not supported.
 */
export function fromJson(v: Json): PyValue {
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
  if (Array.isArray(v)) return v.map(fromJson);
  throw new Unsupported('a JSON object is not supported as a Python value');
}

/** Python str() of a JSON value (json.loads, then str), for comparisons and messages. */
export function jsonPyStr(v: Json): string {
  if (v !== null && typeof v === 'object' && !Array.isArray(v)) {
    const entries = Object.entries(v).map(([k, x]) => `${pyRepr(k)}: ${jsonPyRepr(x)}`);
    return `{${entries.join(', ')}}`;
  }
  if (Array.isArray(v)) return `[${v.map(jsonPyRepr).join(', ')}]`;
  return pyStr(fromJson(v));
}

function jsonPyRepr(v: Json): string {
  return typeof v === 'string' ? pyRepr(v) : jsonPyStr(v);
}
