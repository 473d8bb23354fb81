import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ToolResult } from '../providers/types.js';
import type { CallIdentity } from './canonical.js';

/**
 * A record/replay store of tool responses: one pretty-printed JSON file per call, at
 * `<dir>/<tool>/<key[0..2]>/<key>.json`. Plain and diffable; safe under concurrent writers (each file is
 * written to a temporary name and renamed into place, so a reader sees a whole entry or none, and two
 * writers of the same call leave one whole entry).
 */

export const STORE_ENTRY_FORMAT = 'aar-harness/tool-response@1';

export const StoreEntrySchema = z.object({
  format: z.literal(STORE_ENTRY_FORMAT),
  tool: z.string(),
  /** The canonical arguments, parsed, for people reading the store. */
  args: z.record(z.string(), z.unknown()),
  ok: z.boolean(),
  text: z.string(),
  resolved_url: z.string().optional(),
  /** When a live response was recorded (synthetic entries have none, so regenerating them changes nothing). */
  recorded_at: z.string().optional(),
  /** Where the response came from: `live` (recorded from the provider) or `synthetic` (made up, see `aar world`). */
  source: z.enum(['live', 'synthetic']),
  note: z.string().optional(),
});
export type StoreEntry = z.infer<typeof StoreEntrySchema>;

export class ResponseStore {
  constructor(readonly dir: string) {}

  fileFor(id: CallIdentity): string {
    return path.join(this.dir, id.tool, id.key.slice(0, 2), `${id.key}.json`);
  }

  /** The stored response, or undefined when there is none. A corrupt entry is an error naming its file. */
  get(id: CallIdentity): StoreEntry | undefined {
    const file = this.fileFor(id);
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw new Error(`${file}: invalid JSON: ${(error as Error).message}`);
    }
    const parsed = StoreEntrySchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new Error(`${file}: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
    }
    return parsed.data;
  }

  put(id: CallIdentity, result: ToolResult, source: StoreEntry['source'], note?: string): string {
    const entry: StoreEntry = {
      format: STORE_ENTRY_FORMAT,
      tool: id.tool,
      args: JSON.parse(id.args) as Record<string, unknown>,
      ok: result.ok,
      text: result.text,
      ...(result.resolvedUrl ? { resolved_url: result.resolvedUrl } : {}),
      ...(source === 'live' ? { recorded_at: new Date().toISOString() } : {}),
      source,
      ...(note ? { note } : {}),
    };
    const file = this.fileFor(id);
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(tmp, JSON.stringify(entry, null, 2) + '\n');
    renameSync(tmp, file);
    return file;
  }
}

export function entryToResult(entry: StoreEntry): ToolResult {
  return { ok: entry.ok, text: entry.text, ...(entry.resolved_url ? { resolvedUrl: entry.resolved_url } : {}) };
}
