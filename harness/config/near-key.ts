import { z } from 'zod';
import { DEFAULT_FAMILY, findFamily } from '../../tasks/registry.js';
import { JobConfigSchema } from './schema.js';

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

/** The schema of a job config key (`['tasks', 'levels']` reads the family's filter keys), if there is one. */
function schemaAt(segments: readonly PropertyKey[], tasksFamily?: string): z.ZodType | undefined {
  let schema: z.ZodType = JobConfigSchema;
  for (const [i, seg] of segments.entries()) {
    const s = inner(schema);
    if (typeof seg === 'number' && s instanceof z.ZodArray) schema = s.element as z.ZodType;
    else if (s instanceof z.ZodObject && typeof seg === 'string' && seg in s.shape) schema = s.shape[seg] as z.ZodType;
    else if (i === 1 && segments[0] === 'tasks' && typeof seg === 'string') {
      const filter = familyFilter(tasksFamily);
      if (!filter || !(seg in filter.shape)) return undefined;
      schema = filter.shape[seg] as z.ZodType;
    } else return undefined;
  }
  return schema;
}

function familyFilter(tasksFamily?: string): z.ZodObject | undefined {
  const filter = findFamily(tasksFamily ?? DEFAULT_FAMILY)?.filterSchema;
  const f = filter ? inner(filter) : undefined;
  return f instanceof z.ZodObject ? f : undefined;
}

/** The keys a job config accepts at a path (`[]`: the top level; `['tasks']`: the family's filter keys too). */
export function knownKeysAt(segments: readonly PropertyKey[], tasksFamily?: string): string[] {
  const schema = schemaAt(segments, tasksFamily);
  const s = schema ? inner(schema) : undefined;
  const keys = s instanceof z.ZodObject ? Object.keys(s.shape) : [];
  if (segments.length === 1 && segments[0] === 'tasks') keys.push(...Object.keys(familyFilter(tasksFamily)?.shape ?? {}));
  return keys;
}

/**
 * What a key is for, in a few words: the start of its schema description (the one the config reference
 * prints), up to its first colon, semicolon or parenthesis. `timeout_s`: `wall-clock limit of one agent run, in seconds`.
 */
export function keyGist(segments: readonly PropertyKey[], tasksFamily?: string): string | undefined {
  const description = schemaAt(segments, tasksFamily)?.description;
  const gist = description?.split(/[:;(]/)[0].trim().replace(/\.$/, '');
  return gist ? gist[0].toLowerCase() + gist.slice(1) : undefined;
}
