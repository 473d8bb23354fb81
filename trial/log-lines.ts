import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { pySplitlines, pyStrip } from '../pycompat/index.js';

/** A line a reader left out because it is longer than it holds (its text is never kept whole). */
export const LINE_TOO_LONG = Symbol('line too long');
export type LogLine = string | typeof LINE_TOO_LONG;

const CHUNK_BYTES = 1024 * 1024;
// Python's line breaks after universal newlines (\r and \r\n are breaks too; the empty line between \r and
// \n is blank, and blank lines are skipped).
const LINE_BREAK = /[\n\v\f\r\x1c-\x1e\x85\u2028\u2029]/g;
const BOM = [0xef, 0xbb, 0xbf];

/** The non-blank lines of a JSON Lines text, split and stripped as `read_text().splitlines()` and `strip()` give them. */
export function* textLines(text: string): Generator<string> {
  for (const raw of pySplitlines(text)) {
    const line = pyStrip(raw);
    if (line) yield line;
  }
}

/** Whether a whole file is valid UTF-8, read in chunks. */
function isUtf8File(fd: number): boolean {
  const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const buffer = Buffer.alloc(CHUNK_BYTES);
  try {
    for (let position = 0; ; ) {
      const n = readSync(fd, buffer, 0, CHUNK_BYTES, position);
      if (n === 0) break;
      strict.decode(buffer.subarray(0, n), { stream: true });
      position += n;
    }
    strict.decode();
    return true;
  } catch {
    return false;
  }
}

/**
 * The non-blank lines of a file, as textLines gives them for the file's text (read as readOptionalText
 * reads it: UTF-8, bytes that are not UTF-8 replaced), read in chunks so no file is ever held whole. A
 * line longer than `maxLineChars` is given as LINE_TOO_LONG. Null when the file does not exist.
 */
export function fileLines(file: string, maxLineChars: number): Iterable<LogLine> | null {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  // Linux opens a folder for reading; its first read would fail with a bare EISDIR.
  if (fstatSync(fd).isDirectory()) {
    closeSync(fd);
    throw new Error(`${file}: a folder, not a file`);
  }
  return linesOf(fd, maxLineChars);
}

function* linesOf(fd: number, maxLineChars: number): Generator<LogLine> {
  try {
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let n = readSync(fd, buffer, 0, CHUNK_BYTES, 0);
    // A valid file keeps a leading BOM (read_text does); a file that is not UTF-8 is read with it dropped.
    const dropBom = n >= 3 && BOM.every((b, i) => buffer[i] === b) && !isUtf8File(fd);
    const decoder = new TextDecoder('utf-8', { ignoreBOM: !dropBom });
    let pending = '';
    let tooLong = false;
    const finish = (piece: string): LogLine | null => {
      const wasTooLong = tooLong || pending.length + piece.length > maxLineChars;
      const whole = wasTooLong ? null : pending + piece;
      pending = '';
      tooLong = false;
      if (wasTooLong) return LINE_TOO_LONG;
      const line = pyStrip(whole!);
      return line ? line : null;
    };
    for (let position = 0; ; ) {
      const text = n === 0 ? decoder.decode() : decoder.decode(buffer.subarray(0, n), { stream: true });
      let start = 0;
      LINE_BREAK.lastIndex = 0;
      for (let m = LINE_BREAK.exec(text); m !== null; m = LINE_BREAK.exec(text)) {
        const line = finish(text.slice(start, m.index));
        if (line !== null) yield line;
        start = m.index + 1;
      }
      const rest = text.slice(start);
      if (!tooLong) {
        if (pending.length + rest.length > maxLineChars) {
          tooLong = true;
          pending = '';
        } else pending += rest;
      }
      if (n === 0) break;
      position += n;
      n = readSync(fd, buffer, 0, CHUNK_BYTES, position);
    }
    const last = finish('');
    if (last !== null) yield last;
  } finally {
    closeSync(fd);
  }
}
