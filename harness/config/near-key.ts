import { z } from 'zod';
import { DEFAULT_FAMILY, findFamily } from '../../tasks/registry.js';
import { jobConfigSchema } from './schema.js';

/** Edit distance (insertions, deletions, substitutions) between two short strings. */
function distance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length];
}

/** The known key a mistyped one most likely meant (`timeout` -> `timeout_s`), or undefined when none is near. */
export function nearKey(typed: string, known: readonly string[]): string | undefined {
  const lower = typed.toLowerCase();
  let best: { key: string; d: number } | undefined;
  for (const key of known) {
    // A known key that starts with the typed one (or the reverse) is near whatever the length of the rest.
    const d = key.startsWith(lower) || lower.startsWith(key) ? 1 : distance(lower, key);
    if (d <= Math.max(2, Math.floor(key.length / 3)) && (!best || d < best.d)) best = { key, d };
  }
  return best?.key;
}

/** Peels defaults, optionals and pipes off a schema down to the object or array inside. */
function inner(schema: z.ZodType): z.ZodType {
  let s = schema as z.ZodType & { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } };
  for (let i = 0; i < 10; i++) {
    const next = s.def.innerType ?? (s.def.type === 'pipe' ? s.def.in : undefined);
    if (!next) break;
    s = next as typeof s;
  }
  return s;
}

/** The keys a job config accepts at a path (`[]`: the top level; `['tasks']`: the family's filter keys too). */
export function knownKeysAt(segments: readonly PropertyKey[], tasksFamily?: string): string[] {
  let schema: z.ZodType = jobConfigSchema();
  for (const seg of segments) {
    const s = inner(schema);
    if (typeof seg === 'number' && s instanceof z.ZodArray) schema = s.element as z.ZodType;
    else if (s instanceof z.ZodObject && typeof seg === 'string' && seg in s.shape) schema = s.shape[seg] as z.ZodType;
    else return [];
  }
  const s = inner(schema);
  const keys = s instanceof z.ZodObject ? Object.keys(s.shape) : [];
  if (segments.length === 1 && segments[0] === 'tasks') {
    const filter = findFamily(tasksFamily ?? DEFAULT_FAMILY)?.filterSchema;
    const f = filter ? inner(filter) : undefined;
    if (f instanceof z.ZodObject) keys.push(...Object.keys(f.shape));
  }
  return keys;
}
