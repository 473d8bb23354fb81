/** Python 3.11 float rules: repr, int(), format(x, '.Nf'), round(x, n) and float(str). */
import { asciiNumeral } from './numerals.js';

const f64 = new Float64Array(1);
const u64 = new BigUint64Array(f64.buffer);

/** The exact value of a finite |x| as mantissa * 2**exponent (mantissa a BigInt, 0 for zero). */
export function decomposeDouble(x: number): { mantissa: bigint; exponent: number } {
  f64[0] = x;
  const bits = u64[0];
  const biased = Number((bits >> 52n) & 0x7ffn);
  const frac = bits & 0xfffffffffffffn;
  if (biased === 0) return { mantissa: frac, exponent: -1074 };
  return { mantissa: frac | 0x10000000000000n, exponent: biased - 1075 };
}

function isNegative(x: number): boolean {
  return x < 0 || Object.is(x, -0);
}

/**
 * Shortest round-trip decimal digits of a finite non-zero |x| (what Python's dtoa mode 0 and
 * ECMAScript's Number::toString both produce) and decpt such that |x| = 0.DIGITS * 10**decpt.
 */
export function shortestDigits(x: number): { digits: string; decpt: number } {
  const s = String(Math.abs(x));
  const e = s.indexOf('e');
  const mant = e === -1 ? s : s.slice(0, e);
  const exp = e === -1 ? 0 : Number(s.slice(e + 1));
  const dot = mant.indexOf('.');
  const intLen = dot === -1 ? mant.length : dot;
  let digits = dot === -1 ? mant : mant.slice(0, dot) + mant.slice(dot + 1);
  let lead = 0;
  while (lead < digits.length - 1 && digits.charCodeAt(lead) === 0x30) lead++;
  digits = digits.slice(lead);
  let end = digits.length;
  while (end > 1 && digits.charCodeAt(end - 1) === 0x30) end--;
  return { digits: digits.slice(0, end), decpt: intLen - lead + exp };
}

/** `repr(x)` (== `str(x)`) of a float: '0.1', '20.0', '1e-05', '1e+16', '1.5e+300', 'inf', 'nan', '-0.0'. */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return 'nan';
  if (x === Infinity) return 'inf';
  if (x === -Infinity) return '-inf';
  const sign = isNegative(x) ? '-' : '';
  if (x === 0) return sign + '0.0';
  const { digits, decpt } = shortestDigits(x);
  if (decpt <= -4 || decpt > 16) {
    const e = decpt - 1;
    const mant = digits.length === 1 ? digits : digits[0] + '.' + digits.slice(1);
    return `${sign}${mant}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  }
  if (decpt <= 0) return `${sign}0.${'0'.repeat(-decpt)}${digits}`;
  if (decpt >= digits.length) return `${sign}${digits}${'0'.repeat(decpt - digits.length)}.0`;
  return `${sign}${digits.slice(0, decpt)}.${digits.slice(decpt)}`;
}

/** `str(int(x))` for a float: exact digits of the truncated value; null where Python raises (nan, inf). */
export function pyIntOfFloat(x: number): string | null {
  if (!Number.isFinite(x)) return null;
  return BigInt(Math.trunc(x)).toString();
}

/** round(|x| * 10**digits) half-to-even, on the exact binary value; digits may be negative. */
function scaledRoundHalfEven(x: number, digits: number): bigint {
  const { mantissa, exponent } = decomposeDouble(Math.abs(x));
  let num = mantissa;
  let den = 1n;
  if (exponent >= 0) num <<= BigInt(exponent);
  else den <<= BigInt(-exponent);
  if (digits >= 0) num *= 10n ** BigInt(digits);
  else den *= 10n ** BigInt(-digits);
  const q = num / den;
  const twice = (num - q * den) * 2n;
  return twice > den || (twice === den && (q & 1n) === 1n) ? q + 1n : q;
}

/**
 * `format(x, f'.{digits}f')` / `f'{x:.{digits}f}'`: the exact binary value rounded half-to-even
 * (`0.125` -> '0.12', `2.675` -> '2.67', `1e22` -> '10000000000000000000000.0'), sign kept on zero
 * ('-0.00'), 'nan', 'inf', '-inf'.
 */
export function pyFormatFixed(x: number, digits: number): string {
  if (!Number.isInteger(digits) || digits < 0) throw new RangeError(`bad precision ${digits}`);
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  const sign = isNegative(x) ? '-' : '';
  const s = scaledRoundHalfEven(x, digits).toString().padStart(digits + 1, '0');
  if (digits === 0) return sign + s;
  return `${sign}${s.slice(0, s.length - digits)}.${s.slice(s.length - digits)}`;
}

/**
 * `round(x, digits)` for a float x and an int `digits` (any sign): correctly rounded, half-to-even on the
 * exact binary value, then the nearest double; nan/inf unchanged; zero keeps the sign of x
 * (`round(-0.0001, 3)` is -0.0). The result is a float even when integral (wrap it in PyFloat for str()).
 * Throws RangeError where Python raises OverflowError ('rounded value too large to represent').
 */
export function pyRound(x: number, digits: number): number {
  if (!Number.isFinite(x)) return x;
  if (digits > 323) return x; // NDIGITS_MAX
  if (digits < -308) return 0 * x; // NDIGITS_MIN
  const q = scaledRoundHalfEven(x, digits);
  const r = Number(`${isNegative(x) ? '-' : ''}${q}e${-digits}`);
  if (!Number.isFinite(r)) throw new RangeError('rounded value too large to represent');
  return r;
}

const FLOAT_SYNTAX = /^[+-]?(?:(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?|inf|infinity|nan)$/i;

/**
 * `float(s)` for a str; null where Python raises ValueError. Like CPython: non-ASCII whitespace becomes ' '
 * and Unicode decimal digits their ASCII digit (any other non-ASCII character is an error), surrounding ASCII
 * whitespace (' \t\n\v\f\r', not '\x1c'..'\x1f') is stripped, underscores are allowed only between digits;
 * 'inf'/'infinity'/'nan' in any case with an optional sign; overflow gives +-inf.
 */
export function pyFloat(s: string): number | null {
  let t = asciiNumeral(s);
  if (t === null) return null;
  if (t.indexOf('_') !== -1) {
    let out = '';
    let prev = 0;
    for (let i = 0; i < t.length; i++) {
      const c = t.charCodeAt(i);
      if (c === 0x5f) {
        if (!(prev >= 0x30 && prev <= 0x39)) return null;
      } else {
        if (prev === 0x5f && !(c >= 0x30 && c <= 0x39)) return null;
        out += t[i];
      }
      prev = c;
    }
    if (prev === 0x5f) return null;
    t = out;
  }
  if (!FLOAT_SYNTAX.test(t)) return null;
  const body = t.replace(/^[+-]/, '').toLowerCase();
  const negative = t.charCodeAt(0) === 0x2d;
  if (body === 'nan') return NaN;
  if (body === 'inf' || body === 'infinity') return negative ? -Infinity : Infinity;
  return Number(t);
}
