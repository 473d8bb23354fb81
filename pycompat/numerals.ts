/** The text int() and float() parse, as CPython prepares it. */
import { isPySpace, pyDecimalValue } from './unicode.js';

function isAsciiSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

/**
 * CPython's _PyUnicode_TransformDecimalAndSpaceToASCII, then the strip of int() and float(): non-ASCII
 * whitespace becomes ' ' and Unicode decimal digits their ASCII digit (any other non-ASCII character: null),
 * then surrounding ASCII whitespace (' \t\n\v\f\r', not '\x1c'..'\x1f') is removed.
 */
export function asciiNumeral(s: string): string | null {
  let t = s;
  if (/[^\x00-\x7e]/.test(s)) {
    t = '';
    for (const ch of s) {
      const cp = ch.codePointAt(0) as number;
      if (cp < 127) t += ch;
      else if (isPySpace(cp)) t += ' ';
      else {
        const d = pyDecimalValue(cp);
        if (d < 0) return null;
        t += String.fromCharCode(0x30 + d);
      }
    }
  }
  let start = 0;
  let end = t.length;
  while (start < end && isAsciiSpace(t.charCodeAt(start))) start++;
  while (end > start && isAsciiSpace(t.charCodeAt(end - 1))) end--;
  return start === 0 && end === t.length ? t : t.slice(start, end);
}
