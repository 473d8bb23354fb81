/**
 * Python values and their semantics, for the small Python subset that AAR legs use.
 *
 * Representation: int -> bigint, float -> number, bool -> boolean, str -> string (indexed by code point),
 * None -> null; everything else is a tagged object. Semantics follow CPython 3.11.
 */

// Jest runs tests in a vm sandbox where each global lookup is slow; bind the globals used here once.
const { BigInt, Number, Math, String, Array, Object, DataView, ArrayBuffer } = globalThis;

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

export interface PyList {
  type: 'list';
  items: PyValue[];
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
  | PyList
  | PyTuple
  | PySet
  | PyRange
  | PyDate
  | PyTimedelta
  | PyFunction
  | PyModule
  | PyIterator;

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

// ---------------------------------------------------------------------------------------------
// Strings as sequences of code points

export function codePoints(s: string): string[] {
  return Array.from(s);
}

export function pyLen(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** str.isspace() for one character. */
export function isPySpace(ch: string): boolean {
  return /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/.test(ch);
}

export function pyStrip(s: string): string {
  const cps = codePoints(s);
  let a = 0;
  let b = cps.length;
  while (a < b && isPySpace(cps[a])) a++;
  while (b > a && isPySpace(cps[b - 1])) b--;
  return cps.slice(a, b).join('');
}

export function pyIsAlpha(s: string): boolean {
  return s.length > 0 && /^\p{L}+$/u.test(s);
}

// ---------------------------------------------------------------------------------------------
// int() and float()

/** int(x) with one argument. */
export function pyInt(v: PyValue): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'number') return floatToInt(v);
  if (typeof v === 'string') return parseIntLiteral(v);
  throw new PyException(
    'TypeError',
    `int() argument must be a string, a bytes-like object or a real number, not '${typeName(v)}'`,
  );
}

export function floatToInt(f: number): bigint {
  if (Number.isNaN(f)) throw new PyException('ValueError', 'cannot convert float NaN to integer');
  if (!Number.isFinite(f)) throw new PyException('OverflowError', 'cannot convert float infinity to integer');
  return BigInt(Math.trunc(f));
}

/** int(str): surrounding whitespace, a sign, ASCII digits with single underscores between them. */
export function parseIntLiteral(s: string): bigint {
  const body = pyStrip(s);
  const m = /^([+-]?)(\d+(?:_\d+)*)$/.exec(body);
  if (!m) {
    if (/\p{Nd}/u.test(body) && /^[+-]?[\p{Nd}_]+$/u.test(body)) {
      throw new Unsupported(`int() of a string with non-ASCII digits (${pyRepr(s)}) is not supported`);
    }
    throw new PyException('ValueError', `invalid literal for int() with base 10: ${pyRepr(s)}`);
  }
  const n = BigInt(m[2].replace(/_/g, ''));
  return m[1] === '-' ? -n : n;
}

/** float(x) with one argument. */
export function pyFloat(v: PyValue): number {
  if (isNumeric(v)) return toFloat(v);
  if (typeof v === 'string') return parseFloatLiteral(v);
  throw new PyException('TypeError', `float() argument must be a string or a real number, not '${typeName(v)}'`);
}

export function parseFloatLiteral(s: string): number {
  const body = pyStrip(s);
  const m = /^([+-]?)(?:(inf|infinity|nan)|((?:\d(?:_?\d)*)?(?:\.(?:\d(?:_?\d)*)?)?(?:[eE][+-]?\d(?:_?\d)*)?))$/i.exec(body);
  if (m) {
    const sign = m[1] === '-' ? -1 : 1;
    if (m[2]) return m[2].toLowerCase() === 'nan' ? NaN : sign * Infinity;
    const num = m[3];
    if (/\d/.test(num.replace(/[eE].*$/, '')) && !/^\.?[eE]/.test(num) && !/_\.|\._/.test(num)) {
      return sign * Number(num.replace(/_/g, ''));
    }
  }
  throw new PyException('ValueError', `could not convert string to float: ${pyRepr(s)}`);
}

// ---------------------------------------------------------------------------------------------
// str() and repr()

/** repr(float), CPython's shortest round-trip form: fixed notation for exponents -4..15, else scientific. */
export function floatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa, expText] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exp = Number(expText);
  let out: string;
  if (exp >= -4 && exp < 16) {
    if (exp >= digits.length - 1) out = digits + '0'.repeat(exp - digits.length + 1) + '.0';
    else if (exp >= 0) out = `${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
    else out = `0.${'0'.repeat(-exp - 1)}${digits}`;
  } else {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp);
    out = `${m}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  return sign + out;
}

function strRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === quote || ch === '\\') out += '\\' + ch;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch !== ' ' && /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u.test(ch)) {
      const cp = ch.codePointAt(0)!;
      const hex = cp.toString(16);
      out += cp < 0x100 ? `\\x${hex.padStart(2, '0')}` : cp < 0x10000 ? `\\u${hex.padStart(4, '0')}` : `\\U${hex.padStart(8, '0')}`;
    } else out += ch;
  }
  return out + quote;
}

export function pyRepr(v: PyValue): string {
  if (typeof v === 'string') return strRepr(v);
  if (v !== null && typeof v === 'object') {
    if (v.type === 'date') {
      const { year, month, day } = fromOrdinal(v.ordinal);
      return `datetime.date(${year}, ${month}, ${day})`;
    }
    if (v.type === 'timedelta') return v.days === 0n ? 'datetime.timedelta(0)' : `datetime.timedelta(days=${v.days})`;
  }
  return pyStr(v);
}

/** str(x), as print() writes it. */
export function pyStr(v: PyValue): string {
  switch (typeof v) {
    case 'bigint':
      return v.toString();
    case 'number':
      return floatRepr(v);
    case 'boolean':
      return v ? 'True' : 'False';
    case 'string':
      return v;
  }
  if (v === null) return 'None';
  switch (v.type) {
    case 'list':
      return `[${v.items.map(pyRepr).join(', ')}]`;
    case 'tuple':
      return v.items.length === 1 ? `(${pyRepr(v.items[0])},)` : `(${v.items.map(pyRepr).join(', ')})`;
    case 'set':
      if (v.items.length === 0) return 'set()';
      throw new Unsupported('str() of a non-empty set is not supported (its order depends on hashing)');
    case 'range':
      return v.step === 1n ? `range(${v.start}, ${v.stop})` : `range(${v.start}, ${v.stop}, ${v.step})`;
    case 'date': {
      const { year, month, day } = fromOrdinal(v.ordinal);
      return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
    }
    case 'timedelta': {
      const d = v.days;
      if (d === 0n) return '0:00:00';
      return `${d} day${d === 1n || d === -1n ? '' : 's'}, 0:00:00`;
    }
    default:
      throw new Unsupported(`str() of a ${typeName(v)} is not supported`);
  }
}

// ---------------------------------------------------------------------------------------------
// Truth, equality, ordering

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

// ---------------------------------------------------------------------------------------------
// Arithmetic

export type BinaryOperator = '+' | '-' | '*' | '/' | '//' | '%' | '**';

/** Results beyond this many bits are refused rather than computed. */
const MAX_INT_BITS = 100_000;

export function floorDiv(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new PyException('ZeroDivisionError', 'integer division or modulo by zero');
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

export function floorMod(a: bigint, b: bigint): bigint {
  if (b === 0n) throw new PyException('ZeroDivisionError', 'integer modulo by zero');
  const r = a % b;
  return r !== 0n && r < 0n !== b < 0n ? r + b : r;
}

/**
 * n / d * 2^e correctly rounded to a double (round half to even, subnormals included),
 * for n >= 0 and d > 0; Infinity when it overflows.
 */
export function roundRatio(n: bigint, d: bigint, e: number): number {
  if (n === 0n) return 0;
  // L = floor(log2(n / d)), so the value lies in [2^(L+e), 2^(L+e+1)).
  let L = bitLength(n) - bitLength(d);
  if (L >= 0 ? n < d << BigInt(L) : n << BigInt(-L) < d) L--;
  const top = L + e;
  if (top >= 1024) return Infinity;
  if (top < -1076) return 0; // below half of the smallest subnormal
  const u = Math.max(top - 52, -1074); // the unit in the last place of the result
  const shift = e - u;
  const num = shift >= 0 ? n << BigInt(shift) : n;
  const den = shift >= 0 ? d : d << BigInt(-shift);
  let r = num / den;
  const twice = (num % den) * 2n;
  if (twice > den || (twice === den && (r & 1n) === 1n)) r += 1n;
  const f = Number(r) * 2 ** u; // r <= 2^53 and u >= -1074: exact
  return f;
}

/** A finite positive double as m * 2^e with m an integer. */
export function decompose(x: number): { m: bigint; e: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  return exponent === 0 ? { m: fraction, e: -1074 } : { m: fraction | (1n << 52n), e: exponent - 1075 };
}

/** int / int, correctly rounded like CPython's long true division. */
export function intTrueDivide(a: bigint, b: bigint): number {
  if (b === 0n) throw new PyException('ZeroDivisionError', 'division by zero');
  const limit = 1n << 53n;
  if (absBig(a) <= limit && absBig(b) <= limit) return Number(a) / Number(b);
  const f = roundRatio(absBig(a), absBig(b), 0);
  if (!Number.isFinite(f)) throw new PyException('OverflowError', 'integer division result too large for a float');
  return a < 0n !== b < 0n ? -f : f;
}

function intPow(a: bigint, b: bigint): PyValue {
  if (b < 0n) {
    if (a === 0n) throw new PyException('ZeroDivisionError', '0.0 cannot be raised to a negative power');
    return floatPow(toFloat(a), toFloat(b));
  }
  if (a === 0n || a === 1n) return b === 0n ? 1n : a;
  if (a === -1n) return b % 2n === 0n ? 1n : -1n;
  if (BigInt(bitLength(a)) * b > BigInt(MAX_INT_BITS)) {
    throw new Unsupported(`${a} ** ${b} is too large to compute here`);
  }
  return a ** b;
}

function isOddInteger(x: number): boolean {
  return Number.isInteger(x) && Math.abs(x % 2) === 1;
}

/** float ** float, with CPython's special cases (it differs from JS Math.pow on NaN/inf edges). */
export function floatPow(v: number, w: number): number {
  if (w === 0) return 1;
  if (Number.isNaN(v)) return v;
  if (Number.isNaN(w)) return v === 1 ? 1 : w;
  if (!Number.isFinite(w)) {
    const av = Math.abs(v);
    if (av === 1) return 1;
    return (w > 0) === (av > 1) ? Infinity : 0;
  }
  if (!Number.isFinite(v)) {
    const odd = isOddInteger(w);
    if (w > 0) return odd ? v : Math.abs(v);
    return odd ? (v > 0 ? 0 : -0) : 0;
  }
  if (v === 0) {
    if (w < 0) throw new PyException('ZeroDivisionError', '0.0 cannot be raised to a negative power');
    return isOddInteger(w) ? v : 0;
  }
  if (v < 0 && !Number.isInteger(w)) {
    throw new Unsupported(`${floatRepr(v)} ** ${floatRepr(w)} gives a complex number, which is not supported`);
  }
  let r: number;
  if (Number.isInteger(w)) r = exactPow(v, w);
  else if (w === 0.5) r = Math.sqrt(v); // correctly rounded, as C's pow(x, 0.5) is in practice
  else {
    // JS Math.pow and C pow can differ in the last bit for such exponents: refuse rather than guess.
    throw new Unsupported(`${floatRepr(v)} ** ${floatRepr(w)}: float powers with a fractional exponent other than 0.5 are not supported`);
  }
  if (!Number.isFinite(r)) throw new PyException('OverflowError', "(34, 'Numerical result out of range')");
  return r;
}

/** v ** k for finite nonzero v and integer k, correctly rounded from the exact rational value. */
function exactPow(v: number, k: number): number {
  const negative = v < 0 && isOddInteger(k);
  const { m, e } = decompose(Math.abs(v));
  const magnitude = k * Math.log2(Math.abs(v));
  let r: number;
  if (magnitude > 1100) r = Infinity;
  else if (magnitude < -1200) r = 0;
  else {
    const K = Math.abs(k);
    if (bitLength(m) * K > MAX_INT_BITS) throw new Unsupported(`${floatRepr(v)} ** ${floatRepr(k)} is too costly to compute exactly here`);
    const power = m ** BigInt(K);
    r = k > 0 ? roundRatio(power, 1n, e * K) : roundRatio(1n, power, -e * K);
  }
  return negative ? -r : r;
}

/** divmod for floats, as CPython's float_divmod. */
function floatDivmod(vx: number, wx: number): [number, number] {
  // C truth tests: NaN counts as true, unlike in JS.
  let mod = vx % wx;
  let div = (vx - mod) / wx;
  if (mod !== 0) {
    if (wx < 0 !== mod < 0) {
      mod += wx;
      div -= 1;
    }
  } else {
    mod = wx < 0 ? -0 : 0;
  }
  let floordiv: number;
  if (div !== 0) {
    floordiv = Math.floor(div);
    if (div - floordiv > 0.5) floordiv += 1;
  } else {
    floordiv = vx / wx < 0 || Object.is(vx / wx, -0) ? -0 : 0;
  }
  return [floordiv, mod];
}

function floatOp(op: BinaryOperator, a: number, b: number): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      if (b === 0) throw new PyException('ZeroDivisionError', 'float division by zero');
      return a / b;
    case '//':
      if (b === 0) throw new PyException('ZeroDivisionError', 'float floor division by zero');
      return floatDivmod(a, b)[0];
    case '%':
      if (b === 0) throw new PyException('ZeroDivisionError', 'float modulo');
      return floatDivmod(a, b)[1];
    case '**':
      return floatPow(a, b);
  }
}

function intOp(op: BinaryOperator, a: bigint, b: bigint): PyValue {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      if (bitLength(a) + bitLength(b) > MAX_INT_BITS) throw new Unsupported('integer product too large to compute here');
      return a * b;
    case '/':
      return intTrueDivide(a, b);
    case '//':
      return floorDiv(a, b);
    case '%':
      return floorMod(a, b);
    case '**':
      return intPow(a, b);
  }
}

function repeat<T>(items: T[], times: bigint, what: string): T[] {
  if (times > 2n ** 63n - 1n || times < -(2n ** 63n)) throw new PyException('OverflowError', "cannot fit 'int' into an index-sized integer");
  if (times <= 0n) return [];
  if (BigInt(items.length) * times > 10_000_000n) throw new Unsupported(`${what} repetition too large`);
  const out: T[] = [];
  for (let i = 0n; i < times; i++) out.push(...items);
  return out;
}

export function binaryOp(op: BinaryOperator, a: PyValue, b: PyValue): PyValue {
  const ai = asInt(a);
  const bi = asInt(b);
  if (ai !== undefined && bi !== undefined) return intOp(op, ai, bi);
  if (isNumeric(a) && isNumeric(b)) return floatOp(op, toFloat(a), toFloat(b));
  if (typeof a === 'string' && typeof b === 'string' && op === '+') return a + b;
  if (op === '*' && typeof a === 'string' && bi !== undefined) return repeat([a], bi, 'string').join('');
  if (op === '*' && typeof b === 'string' && ai !== undefined) return repeat([b], ai, 'string').join('');
  if (op === '%' && typeof a === 'string') throw new Unsupported('printf-style string formatting is not supported');
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    if (op === '+' && a.type === 'list' && b.type === 'list') return { type: 'list', items: [...a.items, ...b.items] };
    if (op === '+' && a.type === 'tuple' && b.type === 'tuple') return { type: 'tuple', items: [...a.items, ...b.items] };
    if (a.type === 'date' && b.type === 'date' && op === '-') return { type: 'timedelta', days: BigInt(a.ordinal - b.ordinal) };
    if (a.type === 'date' && b.type === 'timedelta' && (op === '+' || op === '-')) {
      return dateFromOrdinalChecked(BigInt(a.ordinal) + (op === '+' ? b.days : -b.days));
    }
    if (a.type === 'timedelta' && b.type === 'date' && op === '+') return dateFromOrdinalChecked(BigInt(b.ordinal) + a.days);
    if (a.type === 'timedelta' && b.type === 'timedelta' && (op === '+' || op === '-')) {
      return { type: 'timedelta', days: op === '+' ? a.days + b.days : a.days - b.days };
    }
  }
  if (a !== null && typeof a === 'object' && (a.type === 'list' || a.type === 'tuple') && op === '*' && bi !== undefined) {
    return { type: a.type, items: repeat(a.items, bi, a.type) };
  }
  throw new PyException('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

export function unaryOp(op: '-' | '+' | '~' | 'not', v: PyValue): PyValue {
  if (op === 'not') return !truthy(v);
  const i = asInt(v);
  if (i !== undefined) return op === '-' ? -i : op === '+' ? i : -(i + 1n);
  if (typeof v === 'number' && op !== '~') return op === '-' ? -v : v;
  if (v !== null && typeof v === 'object' && v.type === 'timedelta' && op !== '~') {
    return op === '-' ? { type: 'timedelta', days: -v.days } : v;
  }
  throw new PyException('TypeError', `bad operand type for unary ${op}: '${typeName(v)}'`);
}

export function pyAbs(v: PyValue): PyValue {
  const i = asInt(v);
  if (i !== undefined) return absBig(i);
  if (typeof v === 'number') return Math.abs(v);
  if (v !== null && typeof v === 'object' && v.type === 'timedelta') return { type: 'timedelta', days: absBig(v.days) };
  throw new PyException('TypeError', `bad operand type for abs(): '${typeName(v)}'`);
}

// ---------------------------------------------------------------------------------------------
// Ranges and dates

export function rangeLength(r: PyRange): bigint {
  if (r.step > 0n) return r.stop > r.start ? (r.stop - r.start + r.step - 1n) / r.step : 0n;
  return r.start > r.stop ? (r.start - r.stop - r.step - 1n) / -r.step : 0n;
}

const DAYS_BEFORE_MONTH = [0, 0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334];

export function isLeapYear(y: number): boolean {
  return y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);
}

export function daysInMonth(y: number, m: number): number {
  return m === 2 && isLeapYear(y) ? 29 : [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

/** Proleptic Gregorian ordinal, as date.toordinal(). */
export function toOrdinal(year: number, month: number, day: number): number {
  const y = year - 1;
  return y * 365 + Math.floor(y / 4) - Math.floor(y / 100) + Math.floor(y / 400) + DAYS_BEFORE_MONTH[month] + (month > 2 && isLeapYear(year) ? 1 : 0) + day;
}

export const MAX_ORDINAL = 3652059; // date(9999, 12, 31)

export function fromOrdinal(ordinal: number): { year: number; month: number; day: number } {
  let year = Math.floor((ordinal - 1) / 365.2425) + 1;
  while (toOrdinal(year, 1, 1) > ordinal) year--;
  while (toOrdinal(year + 1, 1, 1) <= ordinal) year++;
  let month = 12;
  while (toOrdinal(year, month, 1) > ordinal) month--;
  return { year, month, day: ordinal - toOrdinal(year, month, 1) + 1 };
}

function dateFromOrdinalChecked(ordinal: bigint): PyDate {
  if (ordinal < 1n || ordinal > BigInt(MAX_ORDINAL)) throw new PyException('OverflowError', 'date value out of range');
  return { type: 'date', ordinal: Number(ordinal) };
}

/** date(year, month, day) with CPython's range checks. */
export function makeDate(year: bigint, month: bigint, day: bigint): PyDate {
  if (year < 1n || year > 9999n) throw new PyException('ValueError', `year ${year} is out of range`);
  if (month < 1n || month > 12n) throw new PyException('ValueError', 'month must be in 1..12');
  const y = Number(year);
  const m = Number(month);
  if (day < 1n || day > BigInt(daysInMonth(y, m))) throw new PyException('ValueError', 'day is out of range for month');
  return { type: 'date', ordinal: toOrdinal(y, m, Number(day)) };
}

/** date.fromisoformat for YYYY-MM-DD and YYYYMMDD; other ISO forms are reported as unsupported. */
export function dateFromIso(s: string): PyDate {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (!m) {
    if (/^\d{4}-?W\d{2}|^\d{4}-\d{2}-\d{2}[T ]/.test(s)) throw new Unsupported(`date.fromisoformat(${pyRepr(s)}): this ISO form is not supported`);
    throw new PyException('ValueError', `Invalid isoformat string: ${pyRepr(s)}`);
  }
  return makeDate(BigInt(m[1]), BigInt(m[2]), BigInt(m[3]));
}

// ---------------------------------------------------------------------------------------------
// JSON values as Python values

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * A JSON value as the Python value json.loads would give, as far as JSON.parse lets us tell:
 * integral numbers become int (JSON.parse cannot tell 20 from 20.0), other numbers float.
 * Objects are not supported.
 */
export function fromJson(v: Json): PyValue {
  if (typeof v === 'number') return Number.isInteger(v) ? BigInt(v) : v;
  if (typeof v === 'string' || typeof v === 'boolean' || v === null) return v;
  if (Array.isArray(v)) return { type: 'list', items: v.map(fromJson) };
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
