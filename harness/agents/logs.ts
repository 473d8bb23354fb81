import { readFileSync } from 'node:fs';
import path from 'node:path';

/** Reading what agents leave in a trial's agent/ folder. */

/** A file of the agent/ folder as text, or null when the agent left none. */
export function readAgentLog(hostAgentDir: string, name: string): string | null {
  try {
    return readFileSync(path.join(hostAgentDir, name), 'utf8');
  } catch {
    return null;
  }
}

/** Reads a JSON Lines file's objects, skipping lines that are not JSON. */
export function jsonLines(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === 'object' && !Array.isArray(value)) out.push(value as Record<string, unknown>);
    } catch {
      // not a JSON line (a framework's plain-text notice): skipped
    }
  }
  return out;
}

export const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
