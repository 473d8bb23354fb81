/**
 * Values read by the native JSON.parse, brought into the value model of values.ts: the fast path beside
 * json-parse.ts (a port of json.loads), with the rule for when the two cannot differ.
 */
import { type PyValue } from './values.js';

/**
 * A value read by the native JSON.parse, in the value model: an integral number is an int (JSON.parse cannot
 * tell 20 from 20.0), another number a float, an object a dict (JSON.parse lists integer-like keys first).
 */
export function fromNativeJson(v: unknown): PyValue {
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) ? BigInt(v) : v;
    case 'object': {
      if (v === null) return null;
      if (Array.isArray(v)) return v.map(fromNativeJson);
      const dict = new Map<string, PyValue>();
      for (const key in v) dict.set(key, fromNativeJson((v as Record<string, unknown>)[key]));
      return dict;
    }
    default:
      return v as string | boolean;
  }
}

const INTEGER_LIKE_KEY = /^\d+$/;

/**
 * Where JSON.parse and Python's json.loads could give values that print differently: an integral number
 * (20 and 20.0 are both 20 to JSON.parse) or an integer-like key (JS objects list those first, Python
 * dicts keep insertion order), anywhere inside the value. fromNativeJsonIfExact applies the same rule.
 */
export function dependsOnPythonTypes(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value);
  if (Array.isArray(value)) return value.some(dependsOnPythonTypes);
  if (value && typeof value === 'object') {
    for (const key in value) if (INTEGER_LIKE_KEY.test(key) || dependsOnPythonTypes((value as Record<string, unknown>)[key])) return true;
  }
  return false;
}

/**
 * fromNativeJson where JSON.parse's result cannot differ from json.loads' (dependsOnPythonTypes is false),
 * else undefined: one walk both checks and converts.
 */
export function fromNativeJsonIfExact(v: unknown): PyValue | undefined {
  switch (typeof v) {
    case 'number':
      return Number.isInteger(v) ? undefined : v;
    case 'object': {
      if (v === null) return null;
      if (Array.isArray(v)) {
        const list: PyValue[] = new Array(v.length);
        for (let i = 0; i < v.length; i++) {
          const item = fromNativeJsonIfExact(v[i]);
          if (item === undefined) return undefined;
          list[i] = item;
        }
        return list;
      }
      const dict = new Map<string, PyValue>();
      for (const key in v) {
        if (INTEGER_LIKE_KEY.test(key)) return undefined;
        const item = fromNativeJsonIfExact((v as Record<string, unknown>)[key]);
        if (item === undefined) return undefined;
        dict.set(key, item);
      }
      return dict;
    }
    default:
      return v as string | boolean;
  }
}

