/** Equality and ordering of Python values. */
import { codePoints } from '../text.js';
import { PyException, Unsupported, asInt, isNumeric, rangeLength, typeName, type PyValue } from '../values.js';

function sequencesEqual(a: PyValue[], b: PyValue[]): boolean {
  return a.length === b.length && a.every((x, i) => pyEquals(x, b[i]));
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
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && sequencesEqual(a, b);
  if (a instanceof Map || b instanceof Map) throw new Unsupported('comparing dicts is not supported');
  if (a.type === 'tuple' && b.type === 'tuple') return sequencesEqual(a.items, b.items);
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
  else if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !(a instanceof Map) && !(b instanceof Map)) {
    const x = Array.isArray(a) ? a : a.type === 'tuple' ? a.items : undefined;
    const y = Array.isArray(b) ? b : b.type === 'tuple' ? b.items : undefined;
    if (x && y && Array.isArray(a) === Array.isArray(b)) {
      const n = Math.min(x.length, y.length);
      for (let i = 0; i < n; i++) {
        if (!pyEquals(x[i], y[i])) return pyOrder(op, x[i], y[i]);
      }
      c = x.length - y.length;
    } else if (Array.isArray(a) || Array.isArray(b)) c = undefined;
    else if (a.type === 'date' && b.type === 'date') c = a.ordinal - b.ordinal;
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
