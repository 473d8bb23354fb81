import { isPySpace } from '../pycompat/unicode.js';

/**
 * Bounds on what a trial copies out of its sandbox, so no agent can fill the host's memory or disk
 * through its answer or its logs. A cut file is listed in trial.json's `cut_files`.
 */

/**
 * The most of /app/answer.txt kept: an answer is a digit; a longer file is cut here, then read as usual.
 * Whitespace around the answer does not count (AnswerCopy): the reference strips it.
 */
export const ANSWER_LIMIT_BYTES = 4096;

/** The most whitespace read past around an answer (before it, and after the bytes kept), so padding is bounded too. */
export const ANSWER_BLANK_LIMIT_BYTES = 64 * 1024 * 1024;

/** The most of each log kept (the agent's stdout and stderr, each file of its log folders). */
export const LOG_LIMIT_BYTES = 32 * 1024 * 1024;

/**
 * A file that was cut: its name in the trial folder, its size in the sandbox, and the bytes kept; for an
 * answer, `blank`: whitespace around it left out, which changes nothing once it is stripped. The file lost
 * something only when kept + blank < size.
 */
export interface FileCut {
  file: string;
  size: number;
  kept: number;
  blank?: number;
}

/** The line ending a cut log, so a reader of the file sees that it was cut and by how much. */
export function cutMarker(size: number, kept: number): string {
  return `\n[aar-harness: cut at ${kept} of ${size} bytes; the log limit is ${LOG_LIMIT_BYTES} bytes]\n`;
}

/** The longest prefix of `bytes` of at most `max` bytes that does not split a UTF-8 character. */
export function utf8Prefix(bytes: Buffer, max: number): Buffer {
  if (bytes.length <= max) return bytes;
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

/** Counts what a stream carries and lets through at most `maxBytes` of it (the rest is dropped). */
export class ByteBudget {
  private kept = 0;
  private seen = 0;

  constructor(private readonly maxBytes: number) {}

  /** The part of this chunk still within the budget (possibly empty). */
  take(chunk: Buffer): Buffer {
    this.seen += chunk.length;
    const room = Math.max(0, this.maxBytes - this.kept);
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.kept += part.length;
    return part;
  }

  /** Bytes seen so far, kept or not. */
  get size(): number {
    return this.seen;
  }

  /** What was cut, or undefined when everything was kept. */
  get cut(): { size: number; kept: number } | undefined {
    return this.seen > this.kept ? { size: this.seen, kept: this.kept } : undefined;
  }
}

/** What a copy of one file kept, and what it left out (absent when it kept the file whole). */
export interface CopiedFile {
  content: Buffer;
  cut?: { size: number; kept: number; blank?: number };
}

/** Copies one file out of a sandbox as its bytes come: `push` until it returns false (enough) or the file ends. */
export interface FileCopy {
  push(chunk: Buffer): boolean;
  /** What was kept, given the file's whole size. */
  result(size: number): CopiedFile;
}

/** Keeps the first `maxBytes` of a file, cut where no UTF-8 character is split. */
export class PrefixCopy implements FileCopy {
  private readonly chunks: Buffer[] = [];
  private got = 0;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): boolean {
    // A few bytes past the limit show whether a character straddles it.
    const room = this.maxBytes + 3 - this.got;
    this.chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    this.got += Math.min(chunk.length, room);
    return this.got < this.maxBytes + 3;
  }

  result(size: number): CopiedFile {
    const content = utf8Prefix(Buffer.concat(this.chunks), this.maxBytes);
    return size > content.length ? { content, cut: { size, kept: content.length } } : { content };
  }
}

/**
 * Byte length of the whitespace character (Python's str.isspace: all are in the BMP, so at most 3 bytes in
 * UTF-8) at `at`; 0 when the character there is not whitespace; -1 when its bytes are not all there yet.
 */
function spaceLength(bytes: Buffer, at: number): number {
  const b = bytes[at];
  if (b < 0x80) return isPySpace(b) ? 1 : 0;
  const length = b >= 0xc0 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : 0;
  if (!length) return 0;
  let cp = b & (length === 2 ? 0x1f : 0x0f);
  for (let i = 1; i < length; i++) {
    if (at + i >= bytes.length) return -1;
    const c = bytes[at + i];
    if ((c & 0xc0) !== 0x80) return 0;
    cp = (cp << 6) | (c & 0x3f);
  }
  return isPySpace(cp) ? length : 0;
}

/**
 * Copies an answer file as the reference reads it (`read_text().strip()`): whitespace before the answer is
 * skipped without counting against the limit, then at most `limit` bytes are kept (no UTF-8 character
 * split); past them, reading goes on only to see whether nothing but whitespace follows. Whitespace read past
 * (at most `blankLimit` bytes) is `blank`. Padding is thus never a cut: 5,000 spaces and `6` keep `6`.
 */
export class AnswerCopy implements FileCopy {
  private state: 'leading' | 'keeping' | 'trailing' | 'done' = 'leading';
  /** Bytes of a character not yet whole (split between chunks). */
  private pending = Buffer.alloc(0);
  private kept: Buffer[] = [];
  private keptBytes = 0;
  private blank = 0;

  constructor(
    private readonly limit = ANSWER_LIMIT_BYTES,
    private readonly blankLimit = ANSWER_BLANK_LIMIT_BYTES,
  ) {}

  push(chunk: Buffer): boolean {
    const bytes = this.pending.length ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    this.feed(bytes);
    return this.state !== 'done';
  }

  private feed(input: Buffer): void {
    let bytes = input;
    let at = 0;
    while (at < bytes.length && this.state !== 'done') {
      if (this.state === 'keeping') {
        // A few bytes past the limit show whether a character straddles it.
        const take = Math.min(this.limit + 3 - this.keptBytes, bytes.length - at);
        this.kept.push(bytes.subarray(at, at + take));
        this.keptBytes += take;
        at += take;
        if (this.keptBytes < this.limit + 3) continue;
        bytes = Buffer.concat([this.endKeeping(), bytes.subarray(at)]);
        at = 0;
        continue;
      }
      const space = spaceLength(bytes, at);
      if (space < 0) {
        this.pending = Buffer.from(bytes.subarray(at));
        return;
      }
      if (space > 0 && this.blank + space <= this.blankLimit) {
        this.blank += space;
        at += space;
      } else if (this.state === 'leading') this.state = 'keeping';
      else this.state = 'done'; // something other than whitespace follows what was kept: the answer is cut
    }
  }

  /** Keeps at most `limit` bytes of what was kept, no character split; returns the rest, read again as what follows the answer. */
  private endKeeping(): Buffer {
    const all = Buffer.concat(this.kept);
    const whole = utf8Prefix(all, this.limit);
    this.kept = [whole];
    this.keptBytes = whole.length;
    this.state = 'trailing';
    return all.subarray(whole.length);
  }

  result(size: number): CopiedFile {
    // The file ended inside a character: before the answer it is part of it, after it a cut (never blank).
    if (this.pending.length && this.state === 'leading') {
      this.kept.push(this.pending);
      this.keptBytes += this.pending.length;
      this.state = 'keeping';
    }
    if (this.state === 'keeping' && this.keptBytes > this.limit) this.feed(this.endKeeping());
    const content = Buffer.concat(this.kept);
    if (content.length === size) return { content };
    return { content, cut: { size, kept: content.length, ...(this.blank ? { blank: this.blank } : {}) } };
  }
}

/** Whether a cut lost part of the file: more than the whitespace around an answer was left out. */
export const cutLostBytes = (cut: { size: number; kept: number; blank?: number }): boolean => cut.kept + (cut.blank ?? 0) < cut.size;
