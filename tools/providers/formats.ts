/**
 * Helpers for the text agents see; each tool's own format lives in its definition (tools/catalog), which
 * the synthetic-world generator uses too, so a shape changed there changes it everywhere.
 *
 * Conventions: data tools answer with JSON pretty-printed with a 2-space indent, keys in the order written
 * below; a field with no value is `null` (never left out) unless marked optional. Canonical units: distances
 * in km, durations in minutes, elevations in meters, temperatures in deg C (weather keeps Open-Meteo's
 * `*_units` objects alongside the data). fetch_webpage answers with Markdown.
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

// ---- unit conversions (shared so every source rounds the same way) ----

/** Meters to km, to the meter (169850 -> 169.85). */
export const metersToKm = (meters: number): number => Math.round(meters) / 1000;
/** Seconds to minutes, to a tenth of a minute (21930 -> 365.5). */
export const secondsToMinutes = (seconds: number): number => Math.round(seconds / 6) / 10;
/** Prices: cents at 1 and above (17.549999 -> 17.55), 6 decimals below. */
export const roundPrice = (price: number): number => (Math.abs(price) >= 1 ? Math.round(price * 100) / 100 : Math.round(price * 1e6) / 1e6);
