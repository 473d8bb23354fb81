import { applyTransform } from '../golden/transforms.js';
import type { JsonValue, Leg, Stop } from '../schema.js';
import { sameGoldenValue } from './golden-value.js';

/**
 * A leg's stops recomputed from changed tool values: the stops that read a changed value (a merge or unit
 * conversion of tool values, a reason stop's transform, a compute stop's expression) get their new value, the
 * others keep their golden one. The legs write each value a stop reads into its code as a literal (the AAR
 * generator's templates: `int(A) + int(B)`, `value = F`, `abs(a - b) % 10`, ...), so the stops a value reaches
 * are found by those literals; where two earlier stops hold the value a literal was written from, and only one
 * of them changed, the stop is recomputed from the changed one and a note says so.
 */

export interface Recomputed {
  /** Stop index to its value now (golden where nothing it reads changed). */
  values: Map<number, unknown>;
  /** Stops whose value is not the golden one. */
  changed: Set<number>;
  /** Stops that could not be recomputed (what they read failed, or their code is not one of the templates). */
  unknown: Set<number>;
  notes: string[];
}

/** Python's int() of a stop value: numbers truncated, numeric text ("1,899") parsed first; undefined otherwise. */
export function pyIntOf(value: unknown): number | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'number') return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value === 'string') {
    const n = Number(value.trim().replace(/,/g, ''));
    return value.trim() !== '' && Number.isFinite(n) ? Math.trunc(n) : undefined;
  }
  return undefined;
}

const pyMod = (a: number, m: number) => ((a % m) + m) % m;
const digitalRoot = (n: number) => {
  const a = Math.abs(Math.trunc(n));
  return a === 0 ? 0 : pyMod(a - 1, 9) + 1;
};

const MERGE = /^result = (abs\()?int\(([^()\s]+)\) ([+\-*]) int\(([^()\s]+)\)\)?\nprint\(result\)$/;
const CONVERT = /^# Convert .+\nvalue = (\S+)\nconverted = value \* (\S+)\nresult = int\(converted\)\nprint\(result\)$/;
const DAYS = /^from datetime import date\nd1 = date\.fromisoformat\('(\d{4})-\d\d-\d\d'\)\nd2 = date\.fromisoformat\('[^']+'\)\nresult = abs\(\(d2 - d1\)\.days\)\nprint\(result\)$/;

/** A compute stop's expression as the generator wrote it: its kind and integer terms. */
export function parseExpression(expression: string): { kind: 'digital_root' | 'mod10' | 'abs_diff' | 'abs'; terms: number[] } | undefined {
  const ints = (s: string) => s.split(' + ').map((t) => (/^-?\d+$/.test(t.trim()) ? Number(t) : NaN));
  let m = /^digital_root\((.+)\)$/.exec(expression);
  if (m) return { kind: 'digital_root', terms: ints(m[1]) };
  m = /^\((.+)\) % 10$/.exec(expression);
  if (m) return { kind: 'mod10', terms: ints(m[1]) };
  m = /^abs\((-?\d+) - (-?\d+)\) % 10$/.exec(expression);
  if (m) return { kind: 'abs_diff', terms: [Number(m[1]), Number(m[2])] };
  m = /^abs\((-?\d+)\) % 10$/.exec(expression);
  if (m) return { kind: 'abs', terms: [Number(m[1])] };
  return undefined;
}

export function evaluateExpression(kind: 'digital_root' | 'mod10' | 'abs_diff' | 'abs', terms: number[]): number {
  const sum = terms.reduce((a, b) => a + b, 0);
  if (kind === 'digital_root') return digitalRoot(sum);
  if (kind === 'mod10') return pyMod(sum, 10);
  if (kind === 'abs_diff') return pyMod(Math.abs(terms[0] - terms[1]), 10);
  return pyMod(Math.abs(terms[0]), 10);
}

const asNumber = (v: unknown): number | undefined => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined);

/** Recomputes a leg from tool stops' values now (`now`: stop index -> value, or `failed`). */
export function recomputeLeg(leg: Leg, now: Map<number, unknown | { failed: string }>): Recomputed {
  const values = new Map<number, unknown>(leg.stops.map((s) => [s.index, s.extracted_value]));
  const changed = new Set<number>();
  const unknown = new Set<number>();
  const notes: string[] = [];
  const position = new Map(leg.stops.map((s, i) => [s.index, i]));
  const isFailed = (v: unknown): v is { failed: string } => !!v && typeof v === 'object' && 'failed' in (v as object);
  for (const [index, value] of now) {
    if (isFailed(value)) unknown.add(index);
    else {
      values.set(index, value);
      if (!sameGoldenValue(value, leg.stops[position.get(index)!].extracted_value)) changed.add(index);
    }
  }
  const earlier = (stop: Stop) => leg.stops.slice(0, position.get(stop.index));
  /** The earlier stops a literal was written from (their golden value is the literal's value). */
  const sourcesOf = (stop: Stop, literal: number, from: readonly Stop[] = earlier(stop)) => from.filter((s) => asNumber(s.extracted_value) === literal);
  const set = (stop: Stop, value: number | undefined, why: string) => {
    if (value === undefined) {
      unknown.add(stop.index);
      notes.push(`stop ${stop.index}: ${why}`);
      return;
    }
    values.set(stop.index, value);
    if (!sameGoldenValue(value, stop.extracted_value)) changed.add(stop.index);
  };
  /** The value now of the stop a literal came from: [value, reads a changed stop, reads an unknown one]. */
  const fromLiteral = (stop: Stop, literal: number, preferred?: number): { value: number; moved: boolean; lost: boolean } => {
    const candidates = preferred !== undefined && asNumber(leg.stops[position.get(preferred) ?? -1]?.extracted_value) === literal ? [leg.stops[position.get(preferred)!]] : sourcesOf(stop, literal);
    const lost = candidates.find((s) => unknown.has(s.index));
    const moved = candidates.filter((s) => changed.has(s.index));
    if (moved.length && moved.length < candidates.length) notes.push(`stop ${stop.index}: the literal ${literal} was written from one of stops ${candidates.map((s) => s.index).join(', ')}; recomputed from stop ${moved[0].index}, the one that changed`);
    if (lost && !moved.length) return { value: literal, moved: false, lost: true };
    const value = moved.length ? asNumber(values.get(moved[0].index)) : literal;
    return { value: value ?? literal, moved: moved.length > 0, lost: false };
  };

  for (const stop of leg.stops) {
    if (stop.stop_type === 'tool') {
      const last = stop.bridge.tool_chain.at(-1);
      if (last?.tool_name !== 'python_execute_code') continue;
      const code = String(last.arguments.code ?? '');
      const deps = stop.depends_on ?? [];
      let m = MERGE.exec(code);
      if (m) {
        const a = fromLiteral(stop, Number(m[2]), deps[0]);
        const b = fromLiteral(stop, Number(m[4]), deps[1]);
        if (!a.moved && !b.moved) {
          if (a.lost || b.lost) set(stop, undefined, 'a stop it merges could not be audited');
          continue;
        }
        const x = Math.trunc(a.value);
        const y = Math.trunc(b.value);
        const r = m[3] === '+' ? x + y : m[3] === '-' ? x - y : x * y;
        set(stop, m[1] ? Math.abs(r) : r, '');
        continue;
      }
      m = CONVERT.exec(code);
      if (m) {
        const source = fromLiteral(stop, Number(m[1]));
        if (source.moved) set(stop, Math.trunc(source.value * Number(m[2])), '');
        else if (source.lost) set(stop, undefined, 'the value it converts could not be audited');
        continue;
      }
      m = DAYS.exec(code);
      const year = m?.[1];
      const reads = earlier(stop).filter((s) => (changed.has(s.index) || unknown.has(s.index)) && (year ? new RegExp(`\\b${year}\\b`).test(String(s.extracted_value)) : code.includes(String(s.extracted_value))));
      if (reads.length) set(stop, undefined, `its code may read stop ${reads[0].index}, which changed or could not be audited, and is not one of the templates this recomputes`);
      continue;
    }
    if (stop.stop_type === 'reason' && stop.reason_source_stop !== null && stop.reason_transform) {
      const source = stop.reason_source_stop;
      if (unknown.has(source)) set(stop, undefined, `its source stop ${source} could not be audited`);
      else if (changed.has(source)) {
        const outcome = applyTransform(stop.reason_transform, (values.get(source) ?? null) as JsonValue);
        set(stop, outcome.ok ? Number(outcome.value) : undefined, outcome.ok ? '' : `${stop.reason_transform} of the new value: ${outcome.message}`);
      }
      continue;
    }
    if (stop.stop_type === 'compute' && stop.bridge.expression) {
      const parsed = parseExpression(stop.bridge.expression);
      const refs = stop.bridge.referenced_stops.slice(0, parsed?.terms.length ?? 0);
      if (refs.some((r) => unknown.has(r))) {
        set(stop, undefined, 'a stop it computes from could not be audited');
        continue;
      }
      if (!refs.some((r) => changed.has(r))) continue;
      if (!parsed || parsed.terms.some((t) => Number.isNaN(t))) {
        set(stop, undefined, `its expression ${stop.bridge.expression} is not one of the generator's templates`);
        continue;
      }
      const terms = parsed.terms.map((t, i) => (changed.has(refs[i]) ? pyIntOf(values.get(refs[i])) : t));
      set(stop, terms.some((t) => t === undefined) ? undefined : evaluateExpression(parsed.kind, terms as number[]), 'a new value it computes from is not a number');
    }
  }
  return { values, changed, unknown, notes };
}
