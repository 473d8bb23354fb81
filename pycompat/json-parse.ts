/**
 * `json.loads(text)` of CPython 3.11 (C scanner, strict=True) into the value model of values.ts.
 *
 * - dict -> Map (duplicate keys: last value wins, first position kept); int -> bigint; anything with a fraction or
 *   exponent -> float (a number, e.g. 1.0, 1e400 = inf).
 * - NaN, Infinity, -Infinity accepted; whitespace is only ' \t\n\r'; raw control characters in strings are
 *   rejected; escapes \uXXXX are decoded one by one (a surrogate pair then is the astral character in UTF-16,
 *   lone surrogates stay).
 * - Errors: PyJSONDecodeError (a SyntaxError) with CPython's message, e.g.
 *   "Expecting ',' delimiter: line 1 column 3 (char 2)" (char counted in code points as Python does).
 *   An int literal of more than 4300 digits raises PyValueError and nesting deeper than `maxDepth` raises
 *   PyRecursionError: like Python, these are not JSONDecodeError.
 *
 * Speed (tool logs are tens of MB of long strings): string ends are found with indexOf, the positions of the next
 * backslash and control character are cached across the text, and strings with escapes are decoded by the native
 * JSON.parse on their slice (same string grammar); scanStringPy, a direct port of CPython's scanner, runs only to
 * report an error exactly.
 */
import { PyJSONDecodeError, PyRecursionError, PyValueError, scanStringPy } from './json-errors.js';
import { type PyValue } from './values.js';

export { PyJSONDecodeError, PyRecursionError, PyValueError };

/**
 * Nesting depth at which json.loads raises RecursionError under the default recursion limit (1000): 995 from a
 * module's top level, a few less from inside functions. The exact figure depends on the caller's stack depth.
 */
export const PY_JSON_DEFAULT_MAX_DEPTH = 990;

const INT_MAX_STR_DIGITS = 4300;

let S = '';
let len = 0;
let pos = 0;
let nextBs = -1;
let bsFrom = 0;
let nextCtrl = -1;
let ctrlFrom = 0;
let maxDepth = PY_JSON_DEFAULT_MAX_DEPTH;

function fail(msg: string, index: number): never {
  throw new PyJSONDecodeError(msg, S, index);
}

function skipWs(i: number): number {
  while (i < len) {
    const c = S.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else break;
  }
  return i;
}

/** Position of the first backslash at or after `from`, or len (cached: none in [bsFrom, nextBs)). */
function backslashFrom(from: number): number {
  if (from > nextBs || from < bsFrom) {
    bsFrom = from;
    nextBs = S.indexOf('\\', from);
    if (nextBs === -1) nextBs = len;
  }
  return nextBs;
}

const CONTROL = /[\x00-\x1f]/g;

/** Position of the first control character (< 0x20) at or after `from`, or len (cached like backslashFrom). */
function controlFrom(from: number): number {
  if (from > nextCtrl || from < ctrlFrom) {
    ctrlFrom = from;
    CONTROL.lastIndex = from;
    nextCtrl = CONTROL.exec(S) === null ? len : CONTROL.lastIndex - 1;
  }
  return nextCtrl;
}

function checkControl(from: number, to: number): void {
  const c = controlFrom(from);
  if (c < to) fail('Invalid control character at', c);
}

/** String whose opening quote is at index quote; sets pos after the closing quote. */
function parseString(quote: number): string {
  const begin = quote + 1;
  const q = S.indexOf('"', begin);
  if (q !== -1 && q < backslashFrom(begin)) {
    checkControl(begin, q);
    pos = q + 1;
    return S.slice(begin, q);
  }
  return parseEscapedString(quote);
}

/**
 * A string with escapes: find its closing quote, let the native JSON.parse decode it (JSON's string grammar is
 * the same as json.loads' strict one), and only on failure rescan by hand to raise Python's exact error.
 */
function slowString(quote: number): string {
  const r = scanStringPy(S, quote);
  pos = r.end;
  return r.value;
}

function parseEscapedString(quote: number): string {
  // The closing quote is the first one preceded by an even run of backslashes (true for any valid string; an
  // invalid one fails in JSON.parse below whatever end is picked).
  let q = S.indexOf('"', quote + 1);
  while (q !== -1) {
    let k = q - 1;
    while (S.charCodeAt(k) === 0x5c) k--;
    if (((q - 1 - k) & 1) === 0) break;
    q = S.indexOf('"', q + 1);
  }
  if (q === -1) return slowString(quote);
  let out: string;
  try {
    out = JSON.parse(S.slice(quote, q + 1)) as string;
  } catch {
    return slowString(quote);
  }
  pos = q + 1;
  return out;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function parseNumber(start: number): PyValue {
  let i = start;
  let c = S.charCodeAt(i);
  if (c === 0x2d) c = S.charCodeAt(++i);
  if (c >= 0x31 && c <= 0x39) {
    i++;
    while (isDigit(S.charCodeAt(i))) i++;
  } else if (c === 0x30) i++;
  else fail('Expecting value', start);
  let isFloat = false;
  if (S.charCodeAt(i) === 0x2e && isDigit(S.charCodeAt(i + 1))) {
    isFloat = true;
    i += 2;
    while (isDigit(S.charCodeAt(i))) i++;
  }
  c = S.charCodeAt(i);
  if (c === 0x65 || c === 0x45) {
    let j = i + 1;
    c = S.charCodeAt(j);
    if (c === 0x2b || c === 0x2d) j++;
    const digits = j;
    while (isDigit(S.charCodeAt(j))) j++;
    if (j > digits) {
      isFloat = true;
      i = j;
    }
  }
  pos = i;
  const text = S.slice(start, i);
  if (isFloat) {
    return Number(text);
  }
  const ndigits = S.charCodeAt(start) === 0x2d ? i - start - 1 : i - start;
  if (ndigits <= 15) return BigInt(text);
  if (ndigits > INT_MAX_STR_DIGITS) {
    throw new PyValueError(
      `Exceeds the limit (${INT_MAX_STR_DIGITS} digits) for integer string conversion: value has ${ndigits} digits; use sys.set_int_max_str_digits() to increase the limit`,
    );
  }
  return BigInt(text);
}

function matches(i: number, word: string): boolean {
  return S.startsWith(word, i);
}

function enter(depth: number, what: string): void {
  if (depth > maxDepth) throw new PyRecursionError(`maximum recursion depth exceeded while decoding a JSON ${what} from a unicode string`);
}

function parseArray(open: number, depth: number): PyValue[] {
  enter(depth, 'array');
  const arr: PyValue[] = [];
  let i = skipWs(open + 1);
  if (S.charCodeAt(i) === 0x5d) {
    pos = i + 1;
    return arr;
  }
  for (;;) {
    arr.push(parseValue(i, depth));
    i = skipWs(pos);
    const c = S.charCodeAt(i);
    if (c === 0x5d) {
      pos = i + 1;
      return arr;
    }
    if (c !== 0x2c) fail("Expecting ',' delimiter", i);
    i = skipWs(i + 1);
  }
}

function parseObject(open: number, depth: number): Map<string, PyValue> {
  enter(depth, 'object');
  const obj = new Map<string, PyValue>();
  let i = skipWs(open + 1);
  if (S.charCodeAt(i) === 0x7d) {
    pos = i + 1;
    return obj;
  }
  for (;;) {
    if (S.charCodeAt(i) !== 0x22) fail('Expecting property name enclosed in double quotes', i);
    const key = parseString(i);
    i = skipWs(pos);
    if (S.charCodeAt(i) !== 0x3a) fail("Expecting ':' delimiter", i);
    obj.set(key, parseValue(skipWs(i + 1), depth));
    i = skipWs(pos);
    const c = S.charCodeAt(i);
    if (c === 0x7d) {
      pos = i + 1;
      return obj;
    }
    if (c !== 0x2c) fail("Expecting ',' delimiter", i);
    i = skipWs(i + 1);
  }
}

/** Value starting at index i (no leading whitespace); sets pos just after it. */
function parseValue(i: number, depth: number): PyValue {
  switch (S.charCodeAt(i)) {
    case 0x22: return parseString(i);
    case 0x7b: return parseObject(i, depth + 1);
    case 0x5b: return parseArray(i, depth + 1);
    case 0x6e: if (matches(i, 'null')) { pos = i + 4; return null; } break;
    case 0x74: if (matches(i, 'true')) { pos = i + 4; return true; } break;
    case 0x66: if (matches(i, 'false')) { pos = i + 5; return false; } break;
    case 0x4e: if (matches(i, 'NaN')) { pos = i + 3; return NaN; } break;
    case 0x49: if (matches(i, 'Infinity')) { pos = i + 8; return Infinity; } break;
    case 0x2d: if (matches(i, '-Infinity')) { pos = i + 9; return -Infinity; } break;
  }
  return parseNumber(i);
}

/** `json.loads(text)`; throws PyJSONDecodeError (a SyntaxError) where Python raises JSONDecodeError. */
export function parsePyJson(text: string, options?: { maxDepth?: number }): PyValue {
  if (text.charCodeAt(0) === 0xfeff) throw new PyJSONDecodeError('Unexpected UTF-8 BOM (decode using utf-8-sig)', text, 0);
  S = text;
  len = text.length;
  nextBs = -1;
  bsFrom = 0;
  nextCtrl = -1;
  ctrlFrom = 0;
  maxDepth = options?.maxDepth ?? PY_JSON_DEFAULT_MAX_DEPTH;
  try {
    const v = parseValue(skipWs(0), 0);
    const end = skipWs(pos);
    if (end !== len) fail('Extra data', end);
    return v;
  } finally {
    S = '';
  }
}

/**
 * One line of a JSON-lines log as the reference verifier reads it: `json.loads(line.strip())`, with
 * JSONDecodeError mapped to undefined (the line is skipped). Blank lines give undefined too (json.loads('')
 * raises JSONDecodeError). Other errors (PyValueError, PyRecursionError) propagate, as in Python.
 */
export function parsePyJsonLine(strippedLine: string): PyValue | undefined {
  try {
    return parsePyJson(strippedLine);
  } catch (e) {
    if (e instanceof PyJSONDecodeError) return undefined;
    throw e;
  }
}
