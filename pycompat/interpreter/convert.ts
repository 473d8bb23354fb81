/** int(), float() and date.fromisoformat() of the interpreter (str() and repr() are in ../repr.ts). */
import { makeDate } from '../date.js';
import { pyFloat as parseFloatText } from '../floats.js';
import { asciiNumeral } from '../numerals.js';
import { pyRepr } from '../repr.js';
import { PyException, Unsupported, isNumeric, toFloat, typeName, type PyDate, type PyValue } from '../values.js';

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

/**
 * int(str) as CPython: non-ASCII whitespace and decimal digits become ASCII, surrounding ASCII whitespace
 * is stripped, then a sign and digits with single underscores between them.
 */
export function parseIntLiteral(s: string): bigint {
  const body = asciiNumeral(s);
  const m = body === null ? null : /^([+-]?)(\d+(?:_\d+)*)$/.exec(body);
  if (!m) throw new PyException('ValueError', `invalid literal for int() with base 10: ${pyRepr(s)}`);
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
  const f = parseFloatText(s);
  if (f === null) throw new PyException('ValueError', `could not convert string to float: ${pyRepr(s)}`);
  return f;
}

// ---------------------------------------------------------------------------------------------
// str() and repr()

// ---------------------------------------------------------------------------------------------
// date.fromisoformat()

/** date.fromisoformat for YYYY-MM-DD and YYYYMMDD; other ISO forms are reported as unsupported. */
export function dateFromIso(s: string): PyDate {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s) ?? /^(\d{4})(\d{2})(\d{2})$/.exec(s);
  if (!m) {
    if (/^\d{4}-?W\d{2}|^\d{4}-\d{2}-\d{2}[T ]/.test(s)) throw new Unsupported(`date.fromisoformat(${pyRepr(s)}): this ISO form is not supported`);
    throw new PyException('ValueError', `Invalid isoformat string: ${pyRepr(s)}`);
  }
  return makeDate(BigInt(m[1]), BigInt(m[2]), BigInt(m[3]));
}
