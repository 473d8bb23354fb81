/** JSON values (as JSON.parse gives them) as values for the interpreter, and their Python str(). */
import { fromNativeJson } from '../json-native.js';
import { pyStr } from '../repr.js';
import { Unsupported, type PyValue } from '../values.js';

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * A JSON value as the Python value json.loads would give, as far as JSON.parse lets us tell (see
 * fromNativeJson: integral numbers are ints). The interpreter has no dicts, so objects are not supported.
 */
export function fromJson(v: Json): PyValue {
  if (Array.isArray(v)) return v.map(fromJson);
  if (v !== null && typeof v === 'object') throw new Unsupported('a JSON object is not supported as a Python value');
  return fromNativeJson(v);
}

/** Python str() of a JSON value (json.loads, then str), for comparisons and messages. */
export function jsonPyStr(v: Json): string {
  return pyStr(fromNativeJson(v));
}
