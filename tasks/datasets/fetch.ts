import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { extract } from 'tar-stream';
import { z } from 'zod';
import { regularFilesUnder } from '../../container/trial-result.js';
import { dataCacheDir, datasetDir, datasetEntry, SOURCE_FILE, type DatasetEntry } from './catalog.js';

/**
 * `aar data fetch NAME`: the dataset's archive downloaded once, its task files and licence extracted into the
 * cache, the files' manifest checked against the pinned sha256 (catalog.ts), and a note of where they came
 * from (source.json). Nothing half-done is left in the cache's place: the files are put there whole, or not.
 */

export const SourceSchema = z.looseObject({
  dataset: z.string(),
  repository: z.string(),
  commit: z.string(),
  url: z.string(),
  archive_sha256: z.string(),
  content_sha256: z.string(),
  files: z.number().int(),
  fetched_at: z.string(),
});
export type DatasetSource = z.infer<typeof SourceSchema>;

export interface FetchDatasetOptions {
  /** Where the archive is (default: AAR_DATA_URL, else the catalog's). */
  url?: string;
  /** The archive's own sha256, when known: checked before anything is extracted. */
  archiveSha256?: string;
  cacheDir?: string;
  /** Fetch again even when the cache holds the dataset whole. */
  force?: boolean;
  log?: (line: string) => void;
}

/** Every file under `dir`, by its path relative to it with `/`, sorted by the paths' bytes. */
const filesUnder = (dir: string): string[] => regularFilesUnder(dir).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));

/** The manifest's sha256 over a folder's files (catalog.ts's contentSha256), and how many files it holds. */
export function contentDigest(dir: string): { sha256: string; files: number } {
  const files = filesUnder(dir);
  const manifest = files.map((f) => `${createHash('sha256').update(readFileSync(path.join(dir, f))).digest('hex')}  ${f}\n`).join('');
  return { sha256: createHash('sha256').update(manifest).digest('hex'), files: files.length };
}

/** The cached dataset's source.json, or null when the dataset is not (whole) in the cache. */
export function readSource(name: string, cacheDir = dataCacheDir()): DatasetSource | null {
  const file = path.join(datasetDir(name, cacheDir), SOURCE_FILE);
  if (!existsSync(file)) return null;
  const parsed = SourceSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  return parsed.success ? parsed.data : null;
}

/** A member's path below the archive's top folder, or null for a name that leaves it or is not plain. */
function memberPath(name: string): string | null {
  const parts = name.replace(/\/+$/, '').split('/');
  if (parts.length < 2 || parts.some((p) => p === '' || p === '.' || p === '..')) return null;
  return parts.slice(1).join('/');
}

async function download(url: string, file: string, log: (line: string) => void): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: 'follow' });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(`${url}: cannot download (${cause?.code ?? cause?.message ?? (error as Error).message}); AAR_DATA_URL or --url give another place`);
  }
  if (!response.ok || !response.body) throw new Error(`${url}: the server answered ${response.status} ${response.statusText}`);
  const hash = createHash('sha256');
  let bytes = 0;
  const count = new Transform({
    transform(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  await pipeline(Readable.fromWeb(response.body as never), count, createWriteStream(file));
  log(`downloaded ${(bytes / 1e6).toFixed(1)} MB from ${url}`);
  return hash.digest('hex');
}

/** Extracts the dataset's folder (and the files it keeps beside it) from a .tar.gz into `out`; other members are skipped. */
async function extractDataset(archive: string, entry: DatasetEntry, out: string): Promise<void> {
  const tar = extract();
  const reading = pipeline(createReadStream(archive), createGunzip(), tar);
  const prefix = `${entry.folder}/`;
  for await (const member of tar) {
    const rel = memberPath(member.header.name);
    const wanted = member.header.type === 'file' && rel !== null && (rel.startsWith(prefix) || entry.keep.includes(rel));
    if (!wanted) {
      member.resume();
      continue;
    }
    const target = path.join(out, rel!);
    mkdirSync(path.dirname(target), { recursive: true });
    await pipeline(member, createWriteStream(target));
  }
  await reading;
}

/** Fetches a dataset into the cache unless it is there whole; returns its folder and source. */
export async function fetchDataset(name: string, options: FetchDatasetOptions = {}): Promise<{ dir: string; source: DatasetSource; fetched: boolean }> {
  const entry = datasetEntry(name);
  const cacheDir = options.cacheDir ?? dataCacheDir();
  const log = options.log ?? (() => {});
  const dir = datasetDir(name, cacheDir);
  const cached = readSource(name, cacheDir);
  if (cached && !options.force && cached.content_sha256 === entry.contentSha256) return { dir, source: cached, fetched: false };

  const url = options.url ?? process.env.AAR_DATA_URL ?? entry.url;
  mkdirSync(cacheDir, { recursive: true });
  const staging = mkdtempSync(path.join(cacheDir, `.fetch-${name}-`));
  try {
    const archive = path.join(staging, 'archive.tar.gz');
    const archiveSha256 = await download(url, archive, log);
    if (options.archiveSha256 && archiveSha256 !== options.archiveSha256.toLowerCase()) {
      throw new Error(`${url}: the archive has sha256 ${archiveSha256}, expected ${options.archiveSha256}: nothing was installed`);
    }
    const files = path.join(staging, 'files');
    try {
      await extractDataset(archive, entry, files);
    } catch (error) {
      throw new Error(`${url}: not a readable .tar.gz (${(error as Error).message}): nothing was installed`);
    }
    const tasksDir = path.join(files, entry.folder);
    if (!existsSync(tasksDir) || !statSync(tasksDir).isDirectory()) throw new Error(`${url}: the archive has no ${entry.folder}/ folder under its top folder: nothing was installed`);
    const content = contentDigest(tasksDir);
    if (content.sha256 !== entry.contentSha256) {
      throw new Error(
        `${url}: its ${content.files} files under ${entry.folder}/ hash to ${content.sha256}, not the pinned ${entry.contentSha256} (${entry.files} files at ${entry.commit.slice(0, 12)}): nothing was installed`,
      );
    }
    const source: DatasetSource = { dataset: name, repository: entry.repository, commit: entry.commit, url, archive_sha256: archiveSha256, content_sha256: content.sha256, files: content.files, fetched_at: new Date().toISOString() };
    writeFileSync(path.join(files, SOURCE_FILE), JSON.stringify(source, null, 2) + '\n');
    rmSync(dir, { recursive: true, force: true });
    renameSync(files, dir);
    log(`${name}: ${content.files} files checked (sha256 ${content.sha256.slice(0, 12)}...) in ${dir}`);
    return { dir, source, fetched: true };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
