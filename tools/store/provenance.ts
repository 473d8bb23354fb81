import { createHash } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { parseJsonFile } from './json-file.js';

/**
 * Where a store's world came from: `world.json` (made once, when the store's first entry is written: when, by
 * which harness version, and whether its answers are live recordings or synthetic), and one file per session
 * that recorded into it under `provenance/` (when, which harness version, which mode, which endpoints). Each
 * entry says when it was recorded (`recorded_at`). None of these are the world's content: the fingerprint
 * (below) is of the entries alone, so a session that only replayed changes nothing, and two labs holding the
 * same entries hold the same world.
 */

export const WORLD_FILE = 'world.json';
export const SESSIONS_DIR = 'provenance';
export const WORLD_FORMAT = 'aar-harness/world@1';

export const WorldManifestSchema = z.object({
  format: z.literal(WORLD_FORMAT),
  created: z.string(),
  harness_version: z.string(),
  /** `live`: recorded from the tools' upstreams; `synthetic`: made from golden traces (`aar world synthesize`). */
  origin: z.enum(['live', 'synthetic']),
  note: z.string().optional(),
});
export type WorldManifest = z.infer<typeof WorldManifestSchema>;

export const RecordingSessionSchema = z.object({
  started: z.string(),
  harness_version: z.string(),
  mode: z.enum(['record', 'pinned', 'synthesize']),
  /** The endpoints the session's live calls went to (synthesize: none). */
  endpoints: z.record(z.string(), z.string()),
  host: z.string(),
  pid: z.number(),
});
export type RecordingSession = z.infer<typeof RecordingSessionSchema>;

/** Who records into a store: written into its provenance with the first entry a session writes. */
export interface Recorder {
  harnessVersion: string;
  mode: RecordingSession['mode'];
  endpoints: Record<string, string>;
}

/** Writes `file` only when it does not exist (a whole file or none, whoever else writes it at once). */
export function createExclusive(file: string, text: string): boolean {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, text);
  try {
    linkSync(tmp, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(tmp);
  }
}

/** Makes the store's world.json (once) and writes this session's file. */
export function recordSession(dir: string, recorder: Recorder, origin: WorldManifest['origin']): void {
  const now = new Date().toISOString();
  const world: WorldManifest = { format: WORLD_FORMAT, created: now, harness_version: recorder.harnessVersion, origin };
  createExclusive(path.join(dir, WORLD_FILE), JSON.stringify(world, null, 2) + '\n');
  const session: RecordingSession = { started: now, harness_version: recorder.harnessVersion, mode: recorder.mode, endpoints: recorder.endpoints, host: os.hostname(), pid: process.pid };
  const name = `${now.replace(/[:.]/g, '-')}-${process.pid}-${Math.random().toString(36).slice(2, 8)}.json`;
  createExclusive(path.join(dir, SESSIONS_DIR, name), JSON.stringify(session, null, 2) + '\n');
}

const readJson = <T>(file: string, schema: z.ZodType<T>): T => parseJsonFile(file, readFileSync(file, 'utf8'), schema);

export function readProvenance(dir: string): { world?: WorldManifest; sessions: RecordingSession[] } {
  const worldFile = path.join(dir, WORLD_FILE);
  const world = existsSync(worldFile) ? readJson(worldFile, WorldManifestSchema) : undefined;
  const sessionsDir = path.join(dir, SESSIONS_DIR);
  const sessions = existsSync(sessionsDir)
    ? readdirSync(sessionsDir).filter((n) => n.endsWith('.json')).sort().map((n) => readJson(path.join(sessionsDir, n), RecordingSessionSchema))
    : [];
  return { world, sessions };
}

/** Files of a store that are not its entries: provenance, and writes in progress. */
export const isEntryPath = (rel: string): boolean => rel !== WORLD_FILE && !rel.startsWith(`${SESSIONS_DIR}/`) && !rel.endsWith('.tmp') && rel !== 'MANIFEST.sha256';

/** Every entry file of a store (relative paths, `/`-separated, sorted). */
export function entryFiles(dir: string): string[] {
  const files: string[] = [];
  const walk = (sub: string): void => {
    for (const name of readdirSync(path.join(dir, sub)).sort()) {
      const rel = sub ? `${sub}/${name}` : name;
      if (statSync(path.join(dir, rel)).isDirectory()) walk(rel);
      else if (isEntryPath(rel)) files.push(rel);
    }
  };
  walk('');
  return files;
}

/** The world a store holds, as one hash: every entry file's relative path and bytes, in sorted order. */
export function storeFingerprint(dir: string): { sha256: string; entries: number } {
  const hash = createHash('sha256');
  const files = entryFiles(dir);
  for (const rel of files) hash.update(`${rel}\0`).update(readFileSync(path.join(dir, rel))).update('\0');
  return { sha256: hash.digest('hex'), entries: files.length };
}
