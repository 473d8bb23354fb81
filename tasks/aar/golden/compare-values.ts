/**
 * How the golden executor compares a value stated in a leg with the value it computed, and how it shows
 * each of them in a mismatch: numbers numerically (bools are not numbers here), everything else by str().
 */
import type { JsonValue } from '../schema.js';
import type { ProgramResult } from '../../../pycompat/interpreter/program.js';
import { fromJson, isNumeric, jsonPyStr, pyEquals, pyRepr, pyStr, typeName, type Json, type PyValue } from '../../../pycompat/interpreter/index.js';

/** Numerically when both are numbers (bools are not), otherwise by Python str(). */
export function sameValue(expected: JsonValue, computed: PyValue): boolean {
  try {
    if (typeof expected === 'number' && isNumeric(computed) && typeof computed !== 'boolean') {
      return pyEquals(fromJson(expected), computed);
    }
    return jsonPyStr(expected as Json) === pyStr(computed);
  } catch {
    return false; // a value that has no str() here (e.g. a set) is never equal
  }
}

export function sameJson(a: JsonValue, b: JsonValue): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  return jsonPyStr(a as Json) === jsonPyStr(b as Json);
}

export function showExpected(v: JsonValue): string {
  return typeof v === 'string' ? pyRepr(v) : jsonPyStr(v as Json);
}

export function showComputed(v: PyValue): string {
  try {
    return pyRepr(v);
  } catch {
    return `<${typeof v === 'object' && v !== null ? typeName(v) : typeof v}>`;
  }
}

export function strOrNull(v: PyValue): string | null {
  try {
    return pyStr(v);
  } catch {
    return null;
  }
}

/** What a program printed, compared with a value: the printed value itself when it printed one value once. */
export function programOutcome(result: Extract<ProgramResult, { ok: true }>, expected: JsonValue): { same: boolean; computed: string | null; shown: string } {
  if (result.printed.length === 1 && result.printed[0].length === 1) {
    const value = result.printed[0][0];
    return { same: sameValue(expected, value), computed: strOrNull(value), shown: `prints ${showComputed(value)}` };
  }
  const text = result.stdout.endsWith('\n') ? result.stdout.slice(0, -1) : result.stdout;
  if (result.printed.length === 0) return { same: false, computed: '', shown: 'prints nothing' };
  return { same: text === jsonPyStr(expected as Json), computed: text, shown: `prints ${JSON.stringify(text)}` };
}
