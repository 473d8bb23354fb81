/** Truth, equality and ordering of Python values. */
import { codePoints } from '../text.js';
import { PyException, asInt, isNumeric, rangeLength, typeName, type PyValue } from './types.js';

export function truthy(v: PyValue): boolean {
  switch (typeof v) {
    case 'bigint':
      return v !== 0n;
    case 'number':
      return v !== 0; // NaN is true in Python
    case 'boolean':
      return v;
    case 'string':
      return v.length > 0;
  }
  if (v === null) return false;
  switch (v.type) {
    case 'list':
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

export function pyEquals(a: PyValue, b: PyValue): boolean {
  if (isNumeric(a) && isNumeric(b)) {
    const ai = asInt(a);
    const bi = asInt(b);
    if (ai !== undefined && bi !== undefined) return ai === bi;
    // bigint == number compares exact mathematical values in JS; NaN is unequal to everything.
    return (ai ?? a) == (bi ?? b);
  }
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  if (a === null || b === null) return a === b;
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if ((a.type === 'list' && b.type === 'list') || (a.type === 'tuple' && b.type === 'tuple')) {
    return a.items.length === b.items.length && a.items.every((x, i) => pyEquals(x, b.items[i]));
  }
  if (a.type === 'set' && b.type === 'set') {
    return a.items.length === b.items.length && a.items.every((x) => b.items.some((y) => pyEquals(x, y)));
  }
  if (a.type === 'date' && b.type === 'date') return a.ordinal === b.ordinal;
  if (a.type === 'timedelta' && b.type === 'timedelta') return a.days === b.days;
  if (a.type === 'range' && b.type === 'range') {
    const n = rangeLength(a);
    if (n !== rangeLength(b)) return false;
    return n === 0n || (a.start === b.start && (n === 1n || a.step === b.step));
  }
  return a === b;
}

function compareCodePoints(a: string, b: string): number {
  const x = codePoints(a);
  const y = codePoints(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** a < b, a <= b, a > b, a >= b. */
export function pyOrder(op: '<' | '<=' | '>' | '>=', a: PyValue, b: PyValue): boolean {
  if (isNumeric(a) && isNumeric(b)) {
    const x = asInt(a) ?? (a as number);
    const y = asInt(b) ?? (b as number);
    // Mixed bigint/number comparisons are exact in JS, like CPython's int/float comparisons.
    switch (op) {
      case '<':
        return x < y;
      case '<=':
        return x <= y;
      case '>':
        return x > y;
      case '>=':
        return x >= y;
    }
  }
  let c: number | undefined;
  if (typeof a === 'string' && typeof b === 'string') c = compareCodePoints(a, b);
  else if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    if ((a.type === 'list' && b.type === 'list') || (a.type === 'tuple' && b.type === 'tuple')) {
      const n = Math.min(a.items.length, b.items.length);
      for (let i = 0; i < n; i++) {
        if (!pyEquals(a.items[i], b.items[i])) return pyOrder(op, a.items[i], b.items[i]);
      }
      c = a.items.length - b.items.length;
    } else if (a.type === 'date' && b.type === 'date') c = a.ordinal - b.ordinal;
    else if (a.type === 'timedelta' && b.type === 'timedelta') c = a.days < b.days ? -1 : a.days > b.days ? 1 : 0;
  }
  if (c === undefined) {
    throw new PyException('TypeError', `'${op}' not supported between instances of '${typeName(a)}' and '${typeName(b)}'`);
  }
  switch (op) {
    case '<':
      return c < 0;
    case '<=':
      return c <= 0;
    case '>':
      return c > 0;
    case '>=':
      return c >= 0;
  }
}
