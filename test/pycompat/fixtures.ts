/** Loads the CPython-generated expectation fixtures (see gen/gen_fixtures.py). */
import { readFileSync } from 'node:fs';

export function loadFixture<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')) as T;
}

const f64 = new Float64Array(1);
const u8 = new Uint8Array(f64.buffer);

/** A double from its IEEE-754 bits as 16 hex digits (big-endian), as the fixtures store floats. */
export function fromBits(hex: string): number {
  for (let i = 0; i < 8; i++) u8[7 - i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return f64[0];
}

/** The IEEE-754 bits of x as 16 hex digits (big-endian). */
export function toBits(x: number): string {
  f64[0] = x;
  let s = '';
  for (let i = 7; i >= 0; i--) s += u8[i].toString(16).padStart(2, '0');
  return s;
}

/** Same double (nan equal to nan, +0 distinct from -0). */
export function sameFloat(a: number, b: number): boolean {
  return Object.is(a, b);
}

/** JSON text with object keys sorted, to compare records regardless of key order. */
export function canon(v: unknown): string {
  return JSON.stringify(v, (_k, val: unknown) =>
    val && typeof val === 'object' && !Array.isArray(val)
      ? Object.fromEntries(Object.entries(val as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : val,
  );
}
