/**
 * Code point properties exactly as CPython 3.11 (Unicode 14.0.0) sees them, decoded from the generated
 * tables in unicode-tables.ts. Node's ICU is a newer Unicode version, so nothing here uses `\p{..}` or
 * `toLowerCase()`: new characters (e.g. U+1C89, U+A7CB, U+10D50..) would come out differently.
 */
import {
  CASED_BOUNDS,
  CASE_IGNORABLE_BOUNDS,
  DECIMAL_ZEROS,
  LOWER_MULTI,
  LOWER_RUNS,
  PRINTABLE_BOUNDS,
  SPACE_CODEPOINTS,
} from './unicode-tables.js';

function decodeDeltas(encoded: string): Uint32Array {
  const parts = encoded.split(',');
  const out = new Uint32Array(parts.length);
  let prev = 0;
  for (let i = 0; i < parts.length; i++) {
    prev += parseInt(parts[i], 36);
    out[i] = prev;
  }
  return out;
}

/** Number of entries of the sorted `arr` that are <= cp. */
function countAtMost(arr: Uint32Array, cp: number): number {
  let lo = 0;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (arr[mid] <= cp) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Membership in alternating [start, end) boundaries: inside when an odd number of boundaries are <= cp. */
function inRuns(bounds: Uint32Array, cp: number): boolean {
  return (countAtMost(bounds, cp) & 1) === 1;
}

const printable = decodeDeltas(PRINTABLE_BOUNDS);
const caseIgnorable = decodeDeltas(CASE_IGNORABLE_BOUNDS);
const cased = decodeDeltas(CASED_BOUNDS);
const spaces = new Set(decodeDeltas(SPACE_CODEPOINTS));
const decimalZeros = decodeDeltas(DECIMAL_ZEROS);

const lowerStart: number[] = [];
const lowerCount: number[] = [];
const lowerStep: number[] = [];
const lowerOffset: number[] = [];
{
  let prev = 0;
  for (const run of LOWER_RUNS.split(',')) {
    const [start, count, step, offset] = run.split('.').map((p) => parseInt(p, 36));
    prev += start;
    lowerStart.push(prev);
    lowerCount.push(count);
    lowerStep.push(step);
    lowerOffset.push(offset);
  }
}
const lowerMulti = new Map<number, string>();
for (const entry of LOWER_MULTI.split(',')) {
  const [cp, to] = entry.split(':');
  lowerMulti.set(parseInt(cp, 36), String.fromCodePoint(...to.split('.').map((p) => parseInt(p, 36))));
}

/** `chr(cp).isprintable()`. */
export function isPyPrintable(cp: number): boolean {
  if (cp < 0x7f) return cp >= 0x20;
  return inRuns(printable, cp);
}

/** `chr(cp).isspace()` (also what `str.strip()` and `str.split()` strip). */
export function isPySpace(cp: number): boolean {
  if (cp < 0x80) return cp === 0x20 || (cp >= 0x09 && cp <= 0x0d) || (cp >= 0x1c && cp <= 0x1f);
  return spaces.has(cp);
}

/** `unicodedata.decimal(chr(cp), -1)`: the digit value of an Nd code point, else -1. */
export function pyDecimalValue(cp: number): number {
  if (cp < 0x80) return cp >= 0x30 && cp <= 0x39 ? cp - 0x30 : -1;
  const n = countAtMost(decimalZeros, cp);
  if (n === 0) return -1;
  const d = cp - decimalZeros[n - 1];
  return d < 10 ? d : -1;
}

/** CPython's Case_Ignorable flag (used for the Final_Sigma rule of `str.lower()`). */
export function isPyCaseIgnorable(cp: number): boolean {
  return inRuns(caseIgnorable, cp);
}

/** CPython's Cased flag, for code points that are not Case_Ignorable (the only ones where it matters). */
export function isPyCased(cp: number): boolean {
  return inRuns(cased, cp);
}

/** `chr(cp).lower()` as a string, without the context-dependent Final_Sigma rule. */
export function pyLowerCodePoint(cp: number): string {
  if (cp < 0x80) return String.fromCharCode(cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp);
  const multi = lowerMulti.get(cp);
  if (multi !== undefined) return multi;
  let lo = 0;
  let hi = lowerStart.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (lowerStart[mid] <= cp) lo = mid + 1;
    else hi = mid;
  }
  const r = lo - 1;
  if (r >= 0) {
    const k = cp - lowerStart[r];
    if (k % lowerStep[r] === 0 && k / lowerStep[r] < lowerCount[r]) return String.fromCodePoint(cp + lowerOffset[r]);
  }
  return String.fromCodePoint(cp);
}
