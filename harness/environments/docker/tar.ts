import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { extract, pack } from 'tar-stream';
import { LOG_LIMIT_BYTES, PrefixCopy, type CopiedFile, type FileCopy } from '../../../trial/copy-limits.js';
import { CappedFileWriter } from '../capped-file.js';
import type { FileToPut } from '../types.js';

/** Bounds on a file copied out of a container (trial/copy-limits.ts). */
export interface CopyOptions {
  /** Bytes kept of each file (default LOG_LIMIT_BYTES); the rest is never held in host memory. */
  maxBytes?: number;
  /** A file copy of an answer: the whitespace around it is left out and does not count against maxBytes (copy-limits.ts AnswerCopy). */
  answer?: boolean;
  /** Hears of each file that was cut: its path (relative to the folder, for a folder), whole size and bytes kept
   * (and for an answer, the whitespace around it left out). */
  onCut?: (cut: { path: string; size: number; kept: number; blank?: number }) => void;
}

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

const destroy = (stream: NodeJS.ReadableStream): void => void (stream as unknown as { destroy?: () => void }).destroy?.();

/**
 * The first regular file of a tar stream, as `copy` keeps it (a number: its first that many bytes, cut where
 * no UTF-8 character is split). Stops reading the archive once the copy has enough: a 200 MB file costs the
 * host what the copy keeps, not 200 MB. `size` is the file's whole size (from its tar header); `cut` says
 * what was left out, when anything was.
 */
export function firstFileOfTar(stream: NodeJS.ReadableStream, copy: number | FileCopy): Promise<{ content: Buffer; size: number; cut?: CopiedFile['cut'] } | null> {
  const copier = typeof copy === 'number' ? new PrefixCopy(copy) : copy;
  return new Promise((resolve, reject) => {
    const ex = extract();
    let settled = false;
    const finish = (value: { content: Buffer; size: number; cut?: CopiedFile['cut'] } | null): void => {
      if (settled) return;
      settled = true;
      resolve(value);
      destroy(stream);
      ex.destroy();
    };
    ex.on('entry', (header, entry, next) => {
      if (header.type !== 'file') {
        entry.resume();
        entry.on('end', next);
        return;
      }
      const size = header.size ?? 0;
      const done = () => {
        const { content, cut } = copier.result(size);
        finish({ content, size, ...(cut ? { cut } : {}) });
      };
      entry.on('data', (c: unknown) => {
        if (!settled && !copier.push(c as Buffer)) done();
      });
      entry.on('end', () => settled || done());
      entry.on('error', (e: Error) => settled || reject(e));
    });
    ex.on('finish', () => finish(null));
    ex.on('error', (e: Error) => settled || reject(e));
    stream.on('error', (e: Error) => settled || reject(e));
    stream.pipe(ex);
  });
}

/**
 * Writes the regular files of an archive of one folder under hostDir (the archived folder's own name
 * dropped), each cut at `maxBytes` (default LOG_LIMIT_BYTES) with a marker, streamed to disk; paths that
 * would leave hostDir are skipped. Returns the number of files written.
 */
export async function extractUnder(stream: NodeJS.ReadableStream, hostDir: string, options: CopyOptions = {}): Promise<number> {
  const maxBytes = options.maxBytes ?? LOG_LIMIT_BYTES;
  const root = path.resolve(hostDir);
  const ex = extract();
  let written = 0;
  const done = pipeline(stream, ex);
  for await (const entry of ex) {
    const relative = entry.header.name.split('/').slice(1).join('/');
    const target = path.resolve(root, relative);
    if (entry.header.type !== 'file' || !relative || !target.startsWith(root + path.sep)) {
      entry.resume();
      continue;
    }
    mkdirSync(path.dirname(target), { recursive: true });
    await pipeline(entry, new CappedFileWriter(target, maxBytes, (cut) => options.onCut?.({ path: relative, ...cut })));
    written++;
  }
  await done;
  return written;
}
