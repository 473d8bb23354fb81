import { type PyValue } from './values.js';

/** A Python dict. */
export type PyDict = Map<string, PyValue>;

export function isPyDict(v: PyValue | undefined): v is PyDict {
  return v instanceof Map;
}

/** `d.get(key)`: undefined when the key is absent (Python's default), the value otherwise (None is null). */
export function pyGet(d: PyDict, key: string): PyValue | undefined {
  return d.get(key);
}

export function pyKeys(d: PyDict): string[] {
  return [...d.keys()];
}

export function pyList(v: PyValue | undefined): PyValue[] {
  return Array.isArray(v) ? v : [];
}

/** A Python str value, or undefined for anything else. */
export function pyString(v: PyValue | undefined): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A number of any Python numeric type as a JS number (ints beyond 2^53 lose precision), else undefined. */
export function pyNumber(v: PyValue | undefined): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}
