import { readFileSync } from 'node:fs';
import path from 'node:path';
import { entryFiles, readProvenance, storeFingerprint, type RecordingSession, type WorldManifest } from './provenance.js';
import { PER_LEG_DIR, StoreEntrySchema } from './store.js';

/** What `aar world info` says of a store: its provenance, its entries, its fingerprint. */
export interface StoreInfo {
  dir: string;
  world?: WorldManifest;
  sessions: RecordingSession[];
  fingerprint: string;
  entries: number;
  byTool: Record<string, number>;
  bySource: Record<string, number>;
  /** Entries of one leg's own (per-leg/), and how many legs have them. */
  perLeg: { entries: number; legs: number };
  /** The first and last `recorded_at` of live entries. */
  recorded?: { first: string; last: string };
  /** Entries that are failures (`ok: false`), recorded as such. */
  failures: number;
}

export function describeStore(dir: string): StoreInfo {
  const { world, sessions } = readProvenance(dir);
  const { sha256, entries } = storeFingerprint(dir);
  const info: StoreInfo = { dir, ...(world ? { world } : {}), sessions, fingerprint: sha256, entries, byTool: {}, bySource: {}, perLeg: { entries: 0, legs: 0 }, failures: 0 };
  const legs = new Set<string>();
  let first: string | undefined;
  let last: string | undefined;
  for (const rel of entryFiles(dir)) {
    if (!rel.endsWith('.json')) continue;
    let entry;
    try {
      entry = StoreEntrySchema.parse(JSON.parse(readFileSync(path.join(dir, rel), 'utf8')));
    } catch (error) {
      throw new Error(`${path.join(dir, rel)}: not a store entry: ${(error as Error).message.split('\n')[0]}`);
    }
    info.byTool[entry.tool] = (info.byTool[entry.tool] ?? 0) + 1;
    info.bySource[entry.source] = (info.bySource[entry.source] ?? 0) + 1;
    if (!entry.ok) info.failures++;
    if (rel.startsWith(`${PER_LEG_DIR}/`)) {
      info.perLeg.entries++;
      legs.add(rel.split('/')[1]);
    }
    if (entry.recorded_at) {
      if (!first || entry.recorded_at < first) first = entry.recorded_at;
      if (!last || entry.recorded_at > last) last = entry.recorded_at;
    }
  }
  info.perLeg.legs = legs.size;
  if (first && last) info.recorded = { first, last };
  return info;
}

export function formatStoreInfo(info: StoreInfo): string {
  const lines = [`store ${info.dir}`, `  world: sha256 ${info.fingerprint} (${info.entries} entries)`];
  if (info.world) lines.push(`  made: ${info.world.created} by aar-harness ${info.world.harness_version}, answers ${info.world.origin === 'synthetic' ? 'synthetic (made from golden traces, not real data)' : 'recorded live'}`);
  else lines.push('  made: no world.json (a store from before provenance was recorded)');
  if (info.recorded) lines.push(`  entries recorded: ${info.recorded.first} .. ${info.recorded.last}`);
  lines.push(`  by source: ${Object.entries(info.bySource).map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}; ${info.failures} failures stored`);
  lines.push(`  by tool: ${Object.entries(info.byTool).sort().map(([k, v]) => `${k} ${v}`).join(', ') || 'none'}`);
  if (info.perLeg.entries) lines.push(`  per-leg answers: ${info.perLeg.entries} for ${info.perLeg.legs} legs`);
  lines.push(`  recording sessions: ${info.sessions.length}`);
  for (const s of info.sessions) {
    const endpoints = Object.entries(s.endpoints).map(([k, v]) => `${k}=${v}`).join(', ');
    lines.push(`    ${s.started} ${s.mode} by aar-harness ${s.harness_version} on ${s.host} (pid ${s.pid})${endpoints ? `: ${endpoints}` : ''}`);
  }
  return lines.join('\n');
}
