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
  const recomputation = new Recomputation(leg, now);
  for (const stop of leg.stops) {
    if (stop.stop_type === 'tool') recomputation.toolStop(stop);
    else if (stop.stop_type === 'reason' && stop.reason_source_stop !== null && stop.reason_transform) recomputation.reasonStop(stop, stop.reason_source_stop, stop.reason_transform);
    else if (stop.stop_type === 'compute' && stop.bridge.expression) recomputation.computeStop(stop, stop.bridge.expression);
  }
  const { values, changed, unknown, notes } = recomputation;
  return { values, changed, unknown, notes };
}

/** A leg's values as its stops are recomputed in order: each stop reads the values of those before it. */
class Recomputation implements Recomputed {
  readonly values: Map<number, unknown>;
  readonly changed = new Set<number>();
  readonly unknown = new Set<number>();
  readonly notes: string[] = [];
  private readonly position: Map<number, number>;

  constructor(
    private readonly leg: Leg,
    now: Map<number, unknown | { failed: string }>,
  ) {
    this.values = new Map<number, unknown>(leg.stops.map((s) => [s.index, s.extracted_value]));
    this.position = new Map(leg.stops.map((s, i) => [s.index, i]));
    const isFailed = (v: unknown): v is { failed: string } => !!v && typeof v === 'object' && 'failed' in (v as object);
    for (const [index, value] of now) {
      if (isFailed(value)) this.unknown.add(index);
      else {
        this.values.set(index, value);
        if (!sameGoldenValue(value, leg.stops[this.position.get(index)!].extracted_value)) this.changed.add(index);
      }
    }
  }

  /** A tool stop: a merge or a unit conversion of earlier values recomputed; other code that may read a changed value makes it unknown. */
  toolStop(stop: Stop): void {
    const last = stop.bridge.tool_chain.at(-1);
    if (last?.tool_name !== 'python_execute_code') return;
    const code = String(last.arguments.code ?? '');
    const deps = stop.depends_on ?? [];
    let m = MERGE.exec(code);
    if (m) {
      const a = this.fromLiteral(stop, Number(m[2]), deps[0]);
      const b = this.fromLiteral(stop, Number(m[4]), deps[1]);
      if (!a.moved && !b.moved) {
        if (a.lost || b.lost) this.set(stop, undefined, 'a stop it merges could not be audited');
        return;
      }
      const x = Math.trunc(a.value);
      const y = Math.trunc(b.value);
      const r = m[3] === '+' ? x + y : m[3] === '-' ? x - y : x * y;
      this.set(stop, m[1] ? Math.abs(r) : r, '');
      return;
    }
    m = CONVERT.exec(code);
    if (m) {
      const source = this.fromLiteral(stop, Number(m[1]));
      if (source.moved) this.set(stop, Math.trunc(source.value * Number(m[2])), '');
      else if (source.lost) this.set(stop, undefined, 'the value it converts could not be audited');
      return;
    }
    m = DAYS.exec(code);
    const year = m?.[1];
    const reads = this.earlier(stop).filter((s) => (this.changed.has(s.index) || this.unknown.has(s.index)) && (year ? new RegExp(`\\b${year}\\b`).test(String(s.extracted_value)) : code.includes(String(s.extracted_value))));
    if (reads.length) this.set(stop, undefined, `its code may read stop ${reads[0].index}, which changed or could not be audited, and is not one of the templates this recomputes`);
  }

  /** A reason stop: its transform applied to its source stop's new value. */
  reasonStop(stop: Stop, source: number, transform: NonNullable<Stop['reason_transform']>): void {
    if (this.unknown.has(source)) this.set(stop, undefined, `its source stop ${source} could not be audited`);
    else if (this.changed.has(source)) {
      const outcome = applyTransform(transform, (this.values.get(source) ?? null) as JsonValue);
      this.set(stop, outcome.ok ? Number(outcome.value) : undefined, outcome.ok ? '' : `${transform} of the new value: ${outcome.message}`);
    }
  }

  /** A compute stop: its expression evaluated again with the new values of the stops it references. */
  computeStop(stop: Stop, expression: string): void {
    const parsed = parseExpression(expression);
    const refs = stop.bridge.referenced_stops.slice(0, parsed?.terms.length ?? 0);
    if (refs.some((r) => this.unknown.has(r))) return this.set(stop, undefined, 'a stop it computes from could not be audited');
    if (!refs.some((r) => this.changed.has(r))) return;
    if (!parsed || parsed.terms.some((t) => Number.isNaN(t))) return this.set(stop, undefined, `its expression ${expression} is not one of the generator's templates`);
    const terms = parsed.terms.map((t, i) => (this.changed.has(refs[i]) ? pyIntOf(this.values.get(refs[i])) : t));
    this.set(stop, terms.some((t) => t === undefined) ? undefined : evaluateExpression(parsed.kind, terms as number[]), 'a new value it computes from is not a number');
  }

  private earlier(stop: Stop): Stop[] {
    return this.leg.stops.slice(0, this.position.get(stop.index));
  }

  private set(stop: Stop, value: number | undefined, why: string): void {
    if (value === undefined) {
      this.unknown.add(stop.index);
      this.notes.push(`stop ${stop.index}: ${why}`);
      return;
    }
    this.values.set(stop.index, value);
    if (!sameGoldenValue(value, stop.extracted_value)) this.changed.add(stop.index);
  }

  /** The value now of the stop a literal came from (the earlier stops whose golden value is the literal): [value, reads a changed stop, reads an unknown one]. */
  private fromLiteral(stop: Stop, literal: number, preferred?: number): { value: number; moved: boolean; lost: boolean } {
    const { leg, position } = this;
    const candidates = preferred !== undefined && asNumber(leg.stops[position.get(preferred) ?? -1]?.extracted_value) === literal ? [leg.stops[position.get(preferred)!]] : this.earlier(stop).filter((s) => asNumber(s.extracted_value) === literal);
    const lost = candidates.find((s) => this.unknown.has(s.index));
    const moved = candidates.filter((s) => this.changed.has(s.index));
    if (moved.length && moved.length < candidates.length) this.notes.push(`stop ${stop.index}: the literal ${literal} was written from one of stops ${candidates.map((s) => s.index).join(', ')}; recomputed from stop ${moved[0].index}, the one that changed`);
    if (lost && !moved.length) return { value: literal, moved: false, lost: true };
    const value = moved.length ? asNumber(this.values.get(moved[0].index)) : literal;
    return { value: value ?? literal, moved: moved.length > 0, lost: false };
  }
}
