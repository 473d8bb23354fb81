/**
 * Helpers for the text agents see; each tool's own format lives in its definition (tools/catalog), which
 * the synthetic-world generator uses too, so a shape changed there changes it everywhere.
 *
 * Conventions: data tools answer with JSON pretty-printed with a 2-space indent, keys in the order written
 * below; a field with no value is `null` (never left out) unless marked optional. Where the information differs
 * from what the AAR authors' tool servers returned (the golden values were computed from those), ours gives
 * theirs: Google's `{text, value}` for routes (meters, seconds), stock prices rounded as Python's round(x, 2),
 * and so on; test/tools/differential/ checks it against their code. Weather keeps Open-Meteo's `*_units`
 * objects alongside the data. fetch_webpage answers with Markdown.
 */
import type { ToolResult } from './types.js';

export const jsonText = (value: unknown): string => JSON.stringify(value, null, 2);

export function okResult(text: string, resolvedUrl?: string): ToolResult {
  return resolvedUrl === undefined ? { ok: true, text } : { ok: true, text, resolvedUrl };
}

/**
 * `{ok: false, text: "Error: <message>"}`; `providerError` is the upstream detail kept for the log;
 * `transient` marks a failure that may not recur (the gateway neither caches nor records it).
 */
export function errorResult(message: string, providerError?: string, options: { transient?: boolean } = {}): ToolResult {
  const text = message.startsWith('Error: ') ? message : `Error: ${message}`;
  return {
    ok: false,
    text,
    ...(providerError === undefined ? {} : { providerError }),
    ...(options.transient ? { transient: true } : {}),
  };
}

// ---- numbers as the tools of the golden values wrote them ----

/**
 * Python's `round(x, ndigits)`: the exact binary value of `x` rounded half to even at `ndigits` decimals, then
 * read back as the nearest double (so `round(0.125, 2)` is 0.12 and `round(2.675, 2)` is 2.67, as in Python).
 */
export function pyRound(x: number, ndigits: number): number {
  if (!Number.isFinite(x) || x === 0) return x;
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const negative = bits >> 63n === 1n;
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & 0xfffffffffffffn;
  // x = mantissa * 2^exponent, exactly.
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const exponent = (biased === 0 ? 1 : biased) - 1075;
  const scale = 10n ** BigInt(ndigits);
  let digits: bigint;
  if (exponent >= 0) digits = mantissa * scale * (1n << BigInt(exponent));
  else {
    const numerator = mantissa * scale;
    const denominator = 1n << BigInt(-exponent);
    digits = numerator / denominator;
    const twice = 2n * (numerator % denominator);
    if (twice > denominator || (twice === denominator && digits % 2n === 1n)) digits += 1n;
  }
  const rounded = Number(`${digits}e-${ndigits}`);
  return negative ? -rounded : rounded;
}
