import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { extract, pack } from 'tar-stream';
import type { FileToPut } from '../types.js';

/** A tar stream of files, for putArchive at `/`. Parent folders are created by Docker. */
export function tarOf(files: FileToPut[]): NodeJS.ReadableStream {
  const tar = pack();
  for (const f of files) {
    const name = f.path.replace(/^\/+/, '');
    tar.entry({ name, mode: f.mode ?? 0o644, mtime: new Date() }, typeof f.content === 'string' ? Buffer.from(f.content) : f.content);
  }
  tar.finalize();
  return tar as unknown as NodeJS.ReadableStream;
}

/** Reads every regular file of a tar stream: name (as archived) -> bytes. */
export function untar(stream: NodeJS.ReadableStream): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    const files = new Map<string, Buffer>();
    const ex = extract();
    ex.on('entry', (header, entry, next) => {
      const chunks: Buffer[] = [];
      entry.on('data', (c: unknown) => chunks.push(c as Buffer));
      entry.on('end', () => {
        if (header.type === 'file') files.set(header.name, Buffer.concat(chunks));
        next();
      });
      entry.on('error', reject);
    });
    ex.on('finish', () => resolve(files));
    ex.on('error', reject);
    stream.on('error', reject);
    stream.pipe(ex);
  });
}

/** Writes files from an archive of folder `archivedRoot` under hostDir, refusing paths that leave it. */
export function writeUnder(hostDir: string, files: Map<string, Buffer>): number {
  let n = 0;
  for (const [name, content] of files) {
    const relative = name.split('/').slice(1).join('/');
    if (!relative) continue;
    const target = path.resolve(hostDir, relative);
    if (!target.startsWith(path.resolve(hostDir) + path.sep)) continue;
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
    n++;
  }
  return n;
}
