import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import path from 'node:path';

let counter = 0;

/**
 * Writes a file whole or not at all: the bytes go to a temporary file beside it, flushed, then renamed over
 * it. A full disk or a kill mid-write leaves the previous version. The error keeps its code and names the file.
 */
export function writeFileAtomic(file: string, content: string | Uint8Array): void {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${++counter}.tmp`);
  let fd: number | undefined;
  try {
    fd = openSync(tmp, 'wx');
    const bytes = typeof content === 'string' ? Buffer.from(content) : content;
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
    fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    renameSync(tmp, file);
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(tmp, { force: true });
    const e = error as NodeJS.ErrnoException;
    if (!e.message.includes(file)) e.message = `${file}: ${e.message}`;
    throw e;
  }
}
