/**
 * Arithmetic with Python semantics: ints are exact (BigInt), `/` is true division correctly rounded,
 * `//` and `%` floor, `**` with CPython's special cases; dates and timedeltas add and subtract.
 */
import { pyTruthy } from '../repr.js';
import { decomposeDouble, pyFloatRepr } from '../floats.js';
import { dateFromOrdinalChecked } from '../date.js';
import { PyException, Unsupported, isPyObject, absBig, asInt, bitLength, isNumeric, toFloat, typeName, type PyValue } from '../values.js';

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
    throw new Unsupported(`${pyFloatRepr(v)} ** ${pyFloatRepr(w)} gives a complex number, which is not supported`);
  }
  let r: number;
  if (Number.isInteger(w)) r = exactPow(v, w);
  else if (w === 0.5) r = Math.sqrt(v); // correctly rounded, as C's pow(x, 0.5) is in practice
  else {
    // JS Math.pow and C pow can differ in the last bit for such exponents: refuse rather than guess.
    throw new Unsupported(`${pyFloatRepr(v)} ** ${pyFloatRepr(w)}: float powers with a fractional exponent other than 0.5 are not supported`);
  }
  if (!Number.isFinite(r)) throw new PyException('OverflowError', "(34, 'Numerical result out of range')");
  return r;
}

/** v ** k for finite nonzero v and integer k, correctly rounded from the exact rational value. */
function exactPow(v: number, k: number): number {
  const negative = v < 0 && isOddInteger(k);
  const { mantissa: m, exponent: e } = decomposeDouble(Math.abs(v));
  const magnitude = k * Math.log2(Math.abs(v));
  let r: number;
  if (magnitude > 1100) r = Infinity;
  else if (magnitude < -1200) r = 0;
  else {
    const K = Math.abs(k);
    if (bitLength(m) * K > MAX_INT_BITS) throw new Unsupported(`${pyFloatRepr(v)} ** ${pyFloatRepr(k)} is too costly to compute exactly here`);
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
  if (isPyObject(a) && isPyObject(b)) {
    if (op === '+' && Array.isArray(a) && Array.isArray(b)) return [...a, ...b];
    if (Array.isArray(a) || Array.isArray(b)) throw new PyException('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
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
  if (Array.isArray(a) && op === '*' && bi !== undefined) return repeat(a, bi, 'list');
  if (isPyObject(a) && a.type === 'tuple' && op === '*' && bi !== undefined) {
    return { type: a.type, items: repeat(a.items, bi, a.type) };
  }
  throw new PyException('TypeError', `unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

export function unaryOp(op: '-' | '+' | '~' | 'not', v: PyValue): PyValue {
  if (op === 'not') return !pyTruthy(v);
  const i = asInt(v);
  if (i !== undefined) return op === '-' ? -i : op === '+' ? i : -(i + 1n);
  if (typeof v === 'number' && op !== '~') return op === '-' ? -v : v;
  if (isPyObject(v) && v.type === 'timedelta' && op !== '~') {
    return op === '-' ? { type: 'timedelta', days: -v.days } : v;
  }
  throw new PyException('TypeError', `bad operand type for unary ${op}: '${typeName(v)}'`);
}

export function pyAbs(v: PyValue): PyValue {
  const i = asInt(v);
  if (i !== undefined) return absBig(i);
  if (typeof v === 'number') return Math.abs(v);
  if (isPyObject(v) && v.type === 'timedelta') return { type: 'timedelta', days: absBig(v.days) };
  throw new PyException('TypeError', `bad operand type for abs(): '${typeName(v)}'`);
}
