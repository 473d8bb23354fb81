/** Python 3.11 `str` as a sequence of code points, its methods, and text-file reading. */
import { isPyCased, isPyCaseIgnorable, isPySpace, pyDecimalValue, pyLowerCodePoint } from './unicode.js';

/** `s.strip()` with no argument: removes the characters for which `str.isspace()` is true (all are BMP). */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isPySpace(s.charCodeAt(start))) start++;
  while (end > start && isPySpace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** `s.lstrip()` with no argument. */
export function pyLstrip(s: string): string {
  let start = 0;
  while (start < s.length && isPySpace(s.charCodeAt(start))) start++;
  return s.slice(start);
}

/** `s.rstrip()` with no argument. */
export function pyRstrip(s: string): string {
  let end = s.length;
  while (end > 0 && isPySpace(s.charCodeAt(end - 1))) end--;
  return s.slice(0, end);
}

/** Code point starting at UTF-16 index i (a lone surrogate is its own code point, as in a Python str). */
function codePointAt(s: string, i: number): number {
  return s.codePointAt(i) as number;
}

/** Code point ending just before UTF-16 index i, and its UTF-16 length. */
function codePointBefore(s: string, i: number): [number, number] {
  const lo = s.charCodeAt(i - 1);
  if (lo >= 0xdc00 && lo <= 0xdfff && i >= 2) {
    const hi = s.charCodeAt(i - 2);
    if (hi >= 0xd800 && hi <= 0xdbff) return [(hi - 0xd800) * 0x400 + (lo - 0xdc00) + 0x10000, 2];
  }
  return [lo, 1];
}

/**
 * CPython's handle_capital_sigma: U+03A3 at UTF-16 index i lowers to final sigma U+03C2 when preceded by
 * a cased letter (skipping case-ignorable ones) and not followed by one (same skipping).
 */
function isFinalSigma(s: string, i: number): boolean {
  let j = i;
  let c = -1;
  while (j > 0) {
    const [cp, n] = codePointBefore(s, j);
    j -= n;
    if (!isPyCaseIgnorable(cp)) {
      c = cp;
      break;
    }
  }
  if (c < 0 || !isPyCased(c)) return false;
  j = i + 1;
  while (j < s.length) {
    const cp = codePointAt(s, j);
    if (!isPyCaseIgnorable(cp)) return !isPyCased(cp);
    j += cp > 0xffff ? 2 : 1;
  }
  return true;
}

const NON_ASCII = /[^\x00-\x7f]/;

/** `s.lower()` (full case mapping, e.g. U+0130 -> 'i̇', Final_Sigma context), with CPython's Unicode 14 data. */
export function pyLower(s: string): string {
  if (!NON_ASCII.test(s)) return s.toLowerCase();
  let out = '';
  for (let i = 0; i < s.length; ) {
    const cp = codePointAt(s, i);
    if (cp === 0x3a3) out += isFinalSigma(s, i) ? '\u03c2' : '\u03c3';
    else out += pyLowerCodePoint(cp);
    i += cp > 0xffff ? 2 : 1;
  }
  return out;
}

/** Line boundaries of `str.splitlines()` (\r\n counts as one). */
export function isPyLineBreak(c: number): boolean {
  return (c >= 0x0a && c <= 0x0d) || (c >= 0x1c && c <= 0x1e) || c === 0x85 || c === 0x2028 || c === 0x2029;
}

const LINE_BREAK = /[\n\v\f\r\x1c-\x1e\x85\u2028\u2029]/g;
// indexOf per character is several times faster than one character-class regex over long text.
const OTHER_LINE_BREAKS = ['\r', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029'];
const hasOtherLineBreak = (s: string): boolean => OTHER_LINE_BREAKS.some((c) => s.indexOf(c) !== -1);

/** `s.splitlines()` (keepends=False): no trailing empty item, `''.splitlines()` is `[]`. */
export function pySplitlines(s: string): string[] {
  if (!hasOtherLineBreak(s)) {
    // Only \n breaks (the usual text): the native split, without Python's last empty line.
    const lines = s.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    return lines;
  }
  const out: string[] = [];
  const n = s.length;
  let start = 0;
  LINE_BREAK.lastIndex = 0;
  for (let m = LINE_BREAK.exec(s); m !== null; m = LINE_BREAK.exec(s)) {
    const i = m.index;
    out.push(s.slice(start, i));
    start = s.charCodeAt(i) === 0x0d && s.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1;
    LINE_BREAK.lastIndex = start;
  }
  if (start < n) out.push(s.slice(start));
  return out;
}

/**
 * `re.match(r"^\d$", s) is not None`: one Unicode decimal digit (category Nd, e.g. '٧', '５', '𝟏'),
 * optionally followed by a single final '\n' (where `$` also matches).
 */
export function pyMatchesSingleDigit(s: string): boolean {
  if (s.length === 0 || s.length > 3) return false;
  const cp = codePointAt(s, 0);
  const rest = s.slice(cp > 0xffff ? 2 : 1);
  return (rest === '' || rest === '\n') && pyDecimalValue(cp) >= 0;
}

/** What CPython raises when bytes are not valid UTF-8 (a ValueError subclass). */
export class PyUnicodeDecodeError extends Error {
  override name = 'UnicodeDecodeError';
}

/**
 * `Path.read_text()` under a UTF-8 locale: strict UTF-8 (no replacement; encoded surrogates rejected; a
 * leading BOM is kept as U+FEFF), then universal newlines ('\r\n' and lone '\r' become '\n').
 * Throws PyUnicodeDecodeError where Python raises UnicodeDecodeError (the message is not Python's).
 */
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function pyReadText(bytes: Uint8Array): string {
  let text: string;
  try {
    text = STRICT_UTF8.decode(bytes);
  } catch (e) {
    throw new PyUnicodeDecodeError(`'utf-8' codec can't decode the data: ${(e as Error).message}`);
  }
  return pyUniversalNewlines(text);
}

/** Universal newlines of text mode: '\r\n' and a lone '\r' become '\n'. */
export function pyUniversalNewlines(text: string): string {
  return text.indexOf('\r') === -1 ? text : text.replace(/\r\n?/g, '\n');
}

/** The code points of a str (a lone surrogate is one). */
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

/** `str.isalpha()` (Node's Unicode data; CPython 3.11's is Unicode 14, the difference is in new letters only). */
export function pyIsAlpha(s: string): boolean {
  return s.length > 0 && /^\p{L}+$/u.test(s);
}
