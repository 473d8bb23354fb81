/** Indexing and slicing of sequences, and the comparison operators (including `in` and `is`). */
import type { CompareOp } from './ast.js';
import { iterate } from './runtime.js';
import { PyException, Unsupported, isPyObject, asInt, codePoints, pyEquals, pyOrder, typeName, type CallContext, type PyValue } from './index.js';

function normIndex(i: bigint, n: number): number {
  const j = i < 0n ? i + BigInt(n) : i;
  return j < 0n || j >= BigInt(n) ? -1 : Number(j);
}

function sliceIndices(n: number, lower: PyValue, upper: PyValue, step: PyValue): number[] {
  const toIndex = (v: PyValue): bigint | null => {
    if (v === null) return null;
    const i = asInt(v);
    if (i === undefined) throw new PyException('TypeError', 'slice indices must be integers or None or have an __index__ method');
    return i;
  };
  const st = toIndex(step) ?? 1n;
  if (st === 0n) throw new PyException('ValueError', 'slice step cannot be zero');
  const N = BigInt(n);
  const adjust = (v: bigint | null, dflt: bigint): bigint => {
    if (v === null) return dflt;
    let x = v;
    if (x < 0n) {
      x += N;
      if (x < 0n) x = st < 0n ? -1n : 0n;
    } else if (x >= N) x = st < 0n ? N - 1n : N;
    return x;
  };
  const start = adjust(toIndex(lower), st < 0n ? N - 1n : 0n);
  const stop = adjust(toIndex(upper), st < 0n ? -1n : N);
  const out: number[] = [];
  for (let i = start; st > 0n ? i < stop : i > stop; i += st) out.push(Number(i));
  return out;
}

export interface SliceValue {
  lower: PyValue;
  upper: PyValue;
  step: PyValue;
}

/** v[index] or v[lower:upper:step] for str, list and tuple. */
export function subscript(v: PyValue, index: PyValue, slice?: SliceValue): PyValue {
  if (typeof v === 'string' || Array.isArray(v) || (isPyObject(v) && v.type === 'tuple')) {
    const items = typeof v === 'string' ? codePoints(v) : Array.isArray(v) ? v : v.items;
    if (slice) {
      const picked = sliceIndices(items.length, slice.lower, slice.upper, slice.step).map((i) => items[i]);
      return typeof v === 'string' ? (picked as string[]).join('') : Array.isArray(v) ? picked : { type: 'tuple', items: picked };
    }
    const i = asInt(index);
    const what = typeName(v) === 'str' ? 'string' : typeName(v);
    if (i === undefined) throw new PyException('TypeError', `${what} indices must be integers${typeof v === 'string' ? '' : ' or slices'}, not ${typeName(index)}`);
    const j = normIndex(i, items.length);
    if (j < 0) throw new PyException('IndexError', `${what} index out of range`);
    return items[j];
  }
  if (v === null || typeof v !== 'object') throw new PyException('TypeError', `'${typeName(v)}' object is not subscriptable`);
  throw new Unsupported(`indexing a ${typeName(v)} is not supported`);
}

function contains(container: PyValue, item: PyValue, ctx: CallContext): boolean {
  if (typeof container === 'string') {
    if (typeof item !== 'string') throw new PyException('TypeError', `'in <string>' requires string as left operand, not ${typeName(item)}`);
    return container.includes(item);
  }
  if (isPyObject(container) && container.type === 'range') {
    const i = asInt(item);
    if (i === undefined) {
      for (const x of iterate(container, ctx)) if (pyEquals(x, item)) return true;
      return false;
    }
    const { start, stop, step } = container;
    const inBounds = step > 0n ? i >= start && i < stop : i <= start && i > stop;
    return inBounds && (i - start) % step === 0n;
  }
  for (const x of iterate(container, ctx)) if (pyEquals(x, item)) return true;
  return false;
}

function identical(a: PyValue, b: PyValue): boolean {
  const simple = (x: PyValue) => x === null || typeof x === 'boolean';
  if (!simple(a) && !simple(b)) throw new Unsupported("'is' is only supported with None, True or False");
  return a === b;
}

export function compareValues(op: CompareOp, a: PyValue, b: PyValue, ctx: CallContext): boolean {
  switch (op) {
    case '==':
      return pyEquals(a, b);
    case '!=':
      return !pyEquals(a, b);
    case 'in':
      return contains(b, a, ctx);
    case 'not in':
      return !contains(b, a, ctx);
    case 'is':
      return identical(a, b);
    case 'is not':
      return !identical(a, b);
    default:
      return pyOrder(op, a, b);
  }
}
