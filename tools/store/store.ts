import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { ToolResult } from '../providers/types.js';
import type { CallIdentity } from './canonical.js';
import { parseJsonFile } from './json-file.js';
import { createExclusive, recordSession, type Recorder } from './provenance.js';

/**
 * A record/replay store of tool responses: one pretty-printed JSON file per call, at
 * `<dir>/<tool>/<key[0..2]>/<key>.json`. Plain and diffable; safe under concurrent writers (each file is
 * written to a temporary name and renamed into place, so a reader sees a whole entry or none, and two
 * writers of the same call leave one whole entry).
 *
 * A leg that needs another answer to a call than the one shared by all (two legs of a synthetic world
 * disagree) has its own entry under `<dir>/per-leg/<leg id, URI-encoded>/<tool>/...`: a lookup for that
 * leg reads it first, every other lookup the shared entry. A store without `per-leg/` reads as before.
 *
 * A store opened with a `recorder` writes its provenance (tools/store/provenance.ts) with the first entry it
 * writes: world.json when the store is new, and a file for the session. `putIfAbsent` is how a pinned world
 * grows: the first answer recorded for a call stays, whoever else records the same call at the same time.
 */

/** The folder of per-leg entries; no catalog tool is named so (tool names are snake_case). */
export const PER_LEG_DIR = 'per-leg';

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
  /** The leg (task id) a per-leg entry answers for; absent on shared entries. */
  leg: z.string().optional(),
});
export type StoreEntry = z.infer<typeof StoreEntrySchema>;

export class ResponseStore {
  /** The legs with entries of their own, read once on the first lookup for a leg. */
  private legsWithEntries?: Set<string>;

  private sessionWritten = false;

  constructor(
    readonly dir: string,
    private readonly options: { recorder?: Recorder } = {},
  ) {}

  /** The shared entry's file, or with `leg` that leg's own entry's file. */
  fileFor(id: CallIdentity, leg?: string): string {
    const base = leg === undefined ? this.dir : path.join(this.dir, PER_LEG_DIR, legFolder(leg));
    return path.join(base, id.tool, id.key.slice(0, 2), `${id.key}.json`);
  }

  /** Whether `leg` has an answer of its own to this call (then lookups for it must not share the others'). */
  hasLegEntry(id: CallIdentity, leg: string): boolean {
    return this.legHasEntries(leg) && existsSync(this.fileFor(id, leg));
  }

  private legHasEntries(leg: string): boolean {
    if (!this.legsWithEntries) {
      try {
        this.legsWithEntries = new Set(readdirSync(path.join(this.dir, PER_LEG_DIR)).flatMap(legOfFolder));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        this.legsWithEntries = new Set();
      }
    }
    return this.legsWithEntries.has(leg);
  }

  /**
   * The stored response, or undefined when there is none: for a `leg`, its own entry if it has one, else
   * the shared one. A corrupt entry is an error naming its file.
   */
  get(id: CallIdentity, leg?: string): StoreEntry | undefined {
    const own = leg !== undefined && this.legHasEntries(leg) ? this.read(this.fileFor(id, leg)) : undefined;
    return own ?? this.read(this.fileFor(id));
  }

  private read(file: string): StoreEntry | undefined {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return parseJsonFile(file, text, StoreEntrySchema);
  }

  private entry(id: CallIdentity, result: ToolResult, source: StoreEntry['source'], note?: string, leg?: string): StoreEntry {
    return {
      format: STORE_ENTRY_FORMAT,
      tool: id.tool,
      args: JSON.parse(id.args) as Record<string, unknown>,
      ok: result.ok,
      text: result.text,
      ...(result.resolvedUrl ? { resolved_url: result.resolvedUrl } : {}),
      ...(source === 'live' ? { recorded_at: new Date().toISOString() } : {}),
      source,
      ...(note ? { note } : {}),
      ...(leg !== undefined ? { leg } : {}),
    };
  }

  /** The session's provenance, written before its first entry. */
  private noteSession(): void {
    if (this.sessionWritten || !this.options.recorder) return;
    this.sessionWritten = true;
    recordSession(this.dir, this.options.recorder, this.options.recorder.mode === 'synthesize' ? 'synthetic' : 'live');
  }

  /** Writes the shared entry, or with `leg` that leg's own (an entry there already is replaced). */
  put(id: CallIdentity, result: ToolResult, source: StoreEntry['source'], note?: string, leg?: string): string {
    this.noteSession();
    const file = this.fileFor(id, leg);
    mkdirSync(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.entry(id, result, source, note, leg), null, 2) + '\n');
    renameSync(tmp, file);
    return file;
  }

  /**
   * Writes the shared entry unless there is one, atomically: of several processes recording the same call at
   * once, one entry stays whole and every one of them gets it back (`created` says whether it was this one's).
   */
  putIfAbsent(id: CallIdentity, result: ToolResult, source: StoreEntry['source']): { entry: StoreEntry; created: boolean } {
    this.noteSession();
    const file = this.fileFor(id);
    const entry = this.entry(id, result, source);
    if (createExclusive(file, JSON.stringify(entry, null, 2) + '\n')) return { entry, created: true };
    return { entry: this.read(file) ?? entry, created: false };
  }
}

/**
 * A leg id as one folder name under per-leg/ (`aar-dag/easy/sample_003` -> `aar-dag%2Feasy%2Fsample_003`):
 * `/` is encoded, so `..` inside an id stays inside the name; an id that is empty, `.` or `..` as a whole
 * names no folder of its own and is refused.
 */
export function legFolder(leg: string): string {
  const name = encodeURIComponent(leg);
  if (!leg || name === '.' || name === '..') throw new Error(`leg id ${JSON.stringify(leg)} cannot name a per-leg store folder (empty, . or ..)`);
  return name;
}

function legOfFolder(name: string): string[] {
  try {
    return [decodeURIComponent(name)];
  } catch {
    return []; // not a folder this store wrote
  }
}

export function entryToResult(entry: StoreEntry): ToolResult {
  return { ok: entry.ok, text: entry.text, ...(entry.resolved_url ? { resolvedUrl: entry.resolved_url } : {}) };
}
