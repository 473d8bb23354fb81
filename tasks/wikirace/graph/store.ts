import { createHash } from 'node:crypto';
import { endianness } from 'node:os';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { LinkGraph } from './graph.js';

/**
 * A graph folder: `graph.json` (this header), `offsets.u32` and `targets.u32` (the CSR arrays as
 * little-endian Uint32), `titles.txt` (one title per line, page i on line i+1).
 */
export const GRAPH_FORMAT = 'aar-wikirace-graph';
export const GRAPH_VERSION = 1;
export const GRAPH_FILES = { header: 'graph.json', offsets: 'offsets.u32', targets: 'targets.u32', titles: 'titles.txt' } as const;

export const GraphHeaderSchema = z.strictObject({
  format: z.literal(GRAPH_FORMAT),
  version: z.literal(GRAPH_VERSION),
  pages: z.number().int().nonnegative(),
  links: z.number().int().nonnegative(),
  /** Where the links came from: a dump's name and date, an edge list, or a generator and its seed. */
  source: z.string().min(1),
  /** True when made by a generator rather than from Wikipedia. */
  synthetic: z.boolean(),
  /** sha256 over offsets.u32, targets.u32 and titles.txt, in that order. */
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
export type GraphHeader = z.infer<typeof GraphHeaderSchema>;

export interface LoadedGraph {
  graph: LinkGraph;
  header: GraphHeader;
}

const littleEndian = endianness() === 'LE';

function u32Bytes(array: Uint32Array): Buffer {
  const bytes = Buffer.from(array.buffer, array.byteOffset, array.byteLength);
  return littleEndian ? bytes : Buffer.from(bytes).swap32();
}

function checksum(...parts: Buffer[]): string {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part);
  return hash.digest('hex');
}

/** Writes the graph folder; each file goes to a temporary name first and graph.json last, so a folder with a header is complete. */
export async function writeGraphFolder(folder: string, graph: LinkGraph, meta: { source: string; synthetic: boolean }): Promise<GraphHeader> {
  for (let i = 0; i < graph.pageCount; i++) {
    const title = graph.titles[i]!;
    if (title === '' || /[\n\r]/.test(title)) throw new Error(`${folder}: title of page ${i} is empty or holds a line break`);
  }
  const offsets = u32Bytes(graph.offsets);
  const targets = u32Bytes(graph.targets);
  const titles = Buffer.from(graph.titles.join('\n') + (graph.pageCount > 0 ? '\n' : ''), 'utf8');
  const header: GraphHeader = {
    format: GRAPH_FORMAT,
    version: GRAPH_VERSION,
    pages: graph.pageCount,
    links: graph.linkCount,
    source: meta.source,
    synthetic: meta.synthetic,
    sha256: checksum(offsets, targets, titles),
  };
  await mkdir(folder, { recursive: true });
  const put = async (name: string, data: Buffer | string): Promise<void> => {
    const temporary = join(folder, `.${name}.${process.pid}.tmp`);
    await writeFile(temporary, data);
    await rename(temporary, join(folder, name));
  };
  await put(GRAPH_FILES.offsets, offsets);
  await put(GRAPH_FILES.targets, targets);
  await put(GRAPH_FILES.titles, titles);
  await put(GRAPH_FILES.header, JSON.stringify(header, null, 2) + '\n');
  return header;
}

async function readOrFail(path: string): Promise<Buffer> {
  try {
    return await readFile(path);
  } catch (error) {
    throw new Error(`${path}: cannot read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/** The header alone (for the checksum a task file records), checked. */
export async function readGraphHeader(folder: string): Promise<GraphHeader> {
  const path = join(folder, GRAPH_FILES.header);
  let raw: unknown;
  try {
    raw = JSON.parse((await readOrFail(path)).toString('utf8'));
  } catch (error) {
    if ((error as Error).message.startsWith(path)) throw error;
    throw new Error(`${path}: not JSON (${(error as Error).message})`);
  }
  const parsed = GraphHeaderSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${path}: field ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return parsed.data;
}

function u32Array(bytes: Buffer, path: string, field: string, expected: number): Uint32Array {
  if (bytes.length !== expected * 4) throw new Error(`${path}: ${bytes.length} bytes, but graph.json field ${field} says ${expected} values (${expected * 4} bytes)`);
  // A view when the bytes are aligned and little-endian already; a copy otherwise.
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : Buffer.from(bytes);
  if (!littleEndian) aligned.swap32();
  return new Uint32Array(aligned.buffer, aligned.byteOffset, expected);
}

/** Reads a graph folder into typed arrays (one read per file), checking counts, checksum and the CSR shape. */
export async function readGraphFolder(folder: string): Promise<LoadedGraph> {
  const header = await readGraphHeader(folder);
  const paths = { offsets: join(folder, GRAPH_FILES.offsets), targets: join(folder, GRAPH_FILES.targets), titles: join(folder, GRAPH_FILES.titles) };
  const [offsetBytes, targetBytes, titleBytes] = await Promise.all([readOrFail(paths.offsets), readOrFail(paths.targets), readOrFail(paths.titles)]);
  const sum = checksum(offsetBytes, targetBytes, titleBytes);
  if (sum !== header.sha256) throw new Error(`${join(folder, GRAPH_FILES.header)}: field sha256 is ${header.sha256.slice(0, 12)}…, but the data files hash to ${sum.slice(0, 12)}…`);
  const offsets = u32Array(offsetBytes, paths.offsets, 'pages', header.pages + 1);
  const targets = u32Array(targetBytes, paths.targets, 'links', header.links);
  const text = titleBytes.toString('utf8');
  const titles = text === '' ? [] : text.slice(0, text.endsWith('\n') ? -1 : undefined).split('\n');
  if (titles.length !== header.pages) throw new Error(`${paths.titles}: ${titles.length} titles, but graph.json field pages says ${header.pages}`);
  checkShape(offsets, targets, header.pages, paths);
  return { graph: new LinkGraph(titles, offsets, targets), header };
}

function checkShape(offsets: Uint32Array, targets: Uint32Array, pages: number, paths: { offsets: string; targets: string }): void {
  if (offsets[0] !== 0) throw new Error(`${paths.offsets}: first offset is ${offsets[0]}, not 0`);
  for (let i = 0; i < pages; i++) {
    if (offsets[i + 1]! < offsets[i]!) throw new Error(`${paths.offsets}: offset ${i + 1} (${offsets[i + 1]}) is below offset ${i} (${offsets[i]})`);
  }
  if (offsets[pages] !== targets.length) throw new Error(`${paths.offsets}: last offset ${offsets[pages]}, but there are ${targets.length} links`);
  for (let k = 0; k < targets.length; k++) {
    if (targets[k]! >= pages) throw new Error(`${paths.targets}: link ${k} points to page ${targets[k]}, beyond the ${pages} pages`);
  }
}
