import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { extract, pack } from 'tar-stream';
import { entryFiles, readProvenance, SESSIONS_DIR, storeFingerprint, WORLD_FILE } from './provenance.js';

/**
 * A store as one file (`aar world pack`), so that two labs run on the same world: a gzipped tar of its entries
 * and provenance, with MANIFEST.sha256 listing every file's sha256 and the world's fingerprint. Unpacking
 * checks every name (relative, inside the folder, regular files only), every file's hash against the manifest
 * (no file missing, none added) and the fingerprint, into a folder of its own that must not exist or be empty;
 * the folder is only put in place when all of it checked.
 */

export const MANIFEST = 'MANIFEST.sha256';
/** A store entry is a few KB; a page at most the tools' 16 MiB answer bound. */
const MAX_FILE_BYTES = 32 * 1024 * 1024;

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** The store's files that travel: its entries and its provenance. */
function packedFiles(dir: string): string[] {
  const sessions = existsSync(path.join(dir, SESSIONS_DIR)) ? readdirSync(path.join(dir, SESSIONS_DIR)).filter((n) => n.endsWith('.json')).sort().map((n) => `${SESSIONS_DIR}/${n}`) : [];
  return [...(existsSync(path.join(dir, WORLD_FILE)) ? [WORLD_FILE] : []), ...sessions, ...entryFiles(dir)];
}

export interface PackReport {
  file: string;
  files: number;
  bytes: number;
  fingerprint: string;
  entries: number;
}

export async function packStore(dir: string, file: string): Promise<PackReport> {
  if (!existsSync(dir)) throw new Error(`${dir}: no such store folder`);
  readProvenance(dir); // a store whose provenance cannot be read is not packed
  const files = packedFiles(dir);
  const { sha256: fingerprint, entries } = storeFingerprint(dir);
  const manifest = [`# aar-harness world: ${entries} entries, fingerprint sha256 ${fingerprint}`, ...files.map((f) => `${sha256(readFileSync(path.join(dir, f)))}  ${f}`)].join('\n') + '\n';
  const tar = pack();
  const tmp = `${file}.${process.pid}.tmp`;
  const written = pipeline(tar, createGzip(), createWriteStream(tmp));
  const add = (name: string, content: Buffer) =>
    new Promise<void>((resolve, reject) => tar.entry({ name, mode: 0o644, mtime: new Date(0) }, content, (error) => (error ? reject(error) : resolve())));
  await add(MANIFEST, Buffer.from(manifest));
  let bytes = 0;
  for (const f of files) {
    const content = readFileSync(path.join(dir, f));
    bytes += content.length;
    await add(f, content);
  }
  tar.finalize();
  await written;
  renameSync(tmp, file);
  return { file, files: files.length, bytes, fingerprint, entries };
}

/** A name from a pack as a path inside the store, or an error naming it. */
function safeName(name: string, where: string): string {
  const clean = name.replace(/^\.\//, '');
  if (!clean || clean.startsWith('/') || clean.includes('\\') || clean.split('/').some((p) => p === '..' || p === '' || p === '.')) {
    throw new Error(`${where}: ${JSON.stringify(name)}: not a file name inside a store`);
  }
  return clean;
}

export async function unpackStore(file: string, dir: string): Promise<PackReport> {
  if (existsSync(dir) && readdirSync(dir).length) throw new Error(`${dir}: the folder exists and is not empty; unpack into a new one`);
  const staging = `${dir.replace(/\/+$/, '')}.partial-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    const hashes = await extractPack(file, staging);
    const { declared, listed } = checkManifest(file, staging, hashes);
    rmSync(path.join(staging, MANIFEST));
    readProvenance(staging);
    const { sha256: fingerprint, entries } = storeFingerprint(staging);
    if (declared && declared !== fingerprint) throw new Error(`${file}: the entries' fingerprint is ${fingerprint}, the manifest says ${declared}`);
    if (existsSync(dir)) rmSync(dir, { recursive: true });
    mkdirSync(path.dirname(path.resolve(dir)), { recursive: true });
    renameSync(staging, dir);
    return { file, files: listed.size, bytes: 0, fingerprint, entries };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The pack's regular files written under `staging`, each checked by name, kind and size; their sha256 by name. */
async function extractPack(file: string, staging: string): Promise<Map<string, string>> {
  const hashes = new Map<string, string>();
  const ex = extract();
  let refused: Error | undefined;
  ex.on('entry', (header, stream, next) => {
    const skip = (error?: Error) => {
      refused ??= error;
      stream.resume();
      stream.on('end', () => next());
    };
    if (refused || header.type === 'directory') return skip();
    let name: string;
    try {
      name = safeName(header.name, file);
    } catch (error) {
      return skip(error as Error);
    }
    if (header.type !== 'file') return skip(new Error(`${file}: ${name}: a ${header.type}, not a regular file`));
    if ((header.size ?? 0) > MAX_FILE_BYTES) return skip(new Error(`${file}: ${name}: ${header.size} bytes, more than a store file holds`));
    if (hashes.has(name)) return skip(new Error(`${file}: ${name}: twice in the pack`));
    const chunks: Buffer[] = [];
    stream.on('data', (c: unknown) => void chunks.push(c as Buffer));
    stream.on('end', () => {
      const content = Buffer.concat(chunks);
      hashes.set(name, sha256(content));
      mkdirSync(path.dirname(path.join(staging, name)), { recursive: true });
      writeFileSync(path.join(staging, name), content);
      next();
    });
  });
  await pipeline(createReadStream(file), createGunzip(), ex);
  if (refused) throw refused;
  return hashes;
}

/** The manifest's fingerprint and files, checked against what the pack held: every file listed, with its content, and no other. */
function checkManifest(file: string, staging: string, hashes: ReadonlyMap<string, string>): { declared?: string; listed: Map<string, string> } {
  if (!hashes.has(MANIFEST)) throw new Error(`${file}: no ${MANIFEST}: not a pack made by aar world pack`);
  const manifest = readFileSync(path.join(staging, MANIFEST), 'utf8').split('\n');
  const declared = /fingerprint sha256 ([0-9a-f]{64})/.exec(manifest[0] ?? '')?.[1];
  const listed = new Map(manifest.slice(1).filter(Boolean).map((line) => {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!m) throw new Error(`${file}: ${MANIFEST}: a line that is not "<sha256>  <name>": ${JSON.stringify(line)}`);
    return [m[2], m[1]] as const;
  }));
  for (const [name, hash] of listed) {
    if (hashes.get(name) !== hash) throw new Error(`${file}: ${name}: ${hashes.has(name) ? 'its content does not match the manifest' : 'listed in the manifest but not in the pack'}`);
  }
  const extra = [...hashes.keys()].filter((n) => n !== MANIFEST && !listed.has(n));
  if (extra.length) throw new Error(`${file}: ${extra[0]}: in the pack but not in the manifest`);
  return { declared, listed };
}
