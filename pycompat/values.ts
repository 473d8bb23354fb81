/**
 * The one Python value model (CPython 3.11 semantics), used by the verifier and the interpreter alike:
 *
 * - int -> bigint (always, so 20 and 20.0 stay apart); float -> number (always: 20.0 is the number 20)
 * - str -> string (indexed by code point where Python indexes); True/False -> boolean; None -> null
 * - list -> array; dict -> Map<string, PyValue> (keeps Python's insertion order)
 * - tuple, set, range, datetime.date, datetime.timedelta, functions, modules, iterators -> tagged objects
 *
 * Data read with the native JSON.parse enters this model through one conversion, `fromNativeJson`
 * (json-native.ts): an integral number is an int, an object a dict. It is exact wherever the text had no
 * integral float and no integer-like key; the verifier checks that before it takes that fast path.
 * Also here: the exceptions the interpreter raises, and the basic views of a value (type name, as int/float).
 */

/** A Python exception the real program would raise (ZeroDivisionError, ValueError, ...). */
export class PyException extends Error {
  constructor(
    readonly pyType: string,
    readonly detail: string,
  ) {
    super(detail ? `${pyType}: ${detail}` : pyType);
    this.name = 'PyException';
  }
}

/** Something outside the supported subset: reported, never guessed. */
export class Unsupported extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'Unsupported';
  }
}

export interface PyTuple {
  type: 'tuple';
  items: PyValue[];
}
/** Deduplicated, in insertion order (CPython's order is hash-based, so sets are never printed). */
export interface PySet {
  type: 'set';
  items: PyValue[];
}
export interface PyRange {
  type: 'range';
  start: bigint;
  stop: bigint;
  step: bigint;
}
/** datetime.date as its proleptic Gregorian ordinal (1 = 0001-01-01). */
export interface PyDate {
  type: 'date';
  ordinal: number;
}
/** datetime.timedelta with whole days only (all that date arithmetic produces). */
export interface PyTimedelta {
  type: 'timedelta';
  days: bigint;
}
export interface CallContext {
  /** Counts loop iterations; throws Unsupported past the budget. */
  step(n?: number): void;
  /** Text written by print(). */
  write(text: string, values: PyValue[]): void;
}
export interface PyFunction {
  type: 'function';
  name: string;
  call: (args: PyValue[], kwargs: Map<string, PyValue>, ctx: CallContext) => PyValue;
  attrs?: Map<string, PyValue>;
}
export interface PyModule {
  type: 'module';
  name: string;
  attrs: Map<string, PyValue>;
}
/** A lazy iterator (generator expressions). */
export interface PyIterator {
  type: 'iterator';
  name: string;
  iter: Iterator<PyValue>;
}

export type PyValue =
  | bigint
  | number
  | boolean
  | string
  | null
  | PyValue[]
  | Map<string, PyValue>
  | PyTuple
  | PySet
  | PyRange
  | PyDate
  | PyTimedelta
  | PyFunction
  | PyModule
  | PyIterator;

/** The tagged objects (tuple, set, range, date, ...): not a scalar, None, list or dict. */
export type PyObject = Exclude<PyValue, bigint | number | boolean | string | null | PyValue[] | Map<string, PyValue>>;

export function isPyObject(v: PyValue | undefined): v is PyObject {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Map);
}

export const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

export function typeName(v: PyValue): string {
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'float';
    case 'boolean':
      return 'bool';
    case 'string':
      return 'str';
  }
  if (v === null) return 'NoneType';
  if (Array.isArray(v)) return 'list';
  if (v instanceof Map) return 'dict';
  switch (v.type) {
    case 'date':
      return 'datetime.date';
    case 'timedelta':
      return 'datetime.timedelta';
    case 'iterator':
      return v.name;
    default:
      return v.type;
  }
}

/** int or bool as a bigint; undefined for anything else. */
export function asInt(v: PyValue): bigint | undefined {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  return undefined;
}

export function isNumeric(v: PyValue): v is bigint | number | boolean {
  return typeof v === 'bigint' || typeof v === 'number' || typeof v === 'boolean';
}

/** float(x) for a number: ints convert with round-half-even, like CPython; too large is an OverflowError. */
export function toFloat(v: bigint | number | boolean): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  const f = Number(v);
  if (!Number.isFinite(f)) throw new PyException('OverflowError', 'int too large to convert to float');
  return f;
}

export function bitLength(n: bigint): number {
  if (n < 0n) n = -n;
  return n === 0n ? 0 : n.toString(2).length;
}

export function absBig(n: bigint): bigint {
  return n < 0n ? -n : n;
}


export function rangeLength(r: PyRange): bigint {
  if (r.step > 0n) return r.stop > r.start ? (r.stop - r.start + r.step - 1n) / r.step : 0n;
  return r.start > r.stop ? (r.start - r.stop - r.step - 1n) / -r.step : 0n;
}
