import { createWriteStream, type WriteStream } from 'node:fs';
import { Writable } from 'node:stream';
import { cutMarker } from '../../trial/copy-limits.js';

/**
 * A host file that takes at most `maxBytes`: what comes after is counted and dropped, and on end a marker
 * line says the file was cut and `onCut` hears of it. Memory stays at one chunk whatever the writer sends.
 * Errors of the file (a full disk) are this stream's errors.
 */
export class CappedFileWriter extends Writable {
  private kept = 0;
  private seen = 0;
  private readonly file: WriteStream;

  constructor(
    path: string,
    private readonly maxBytes: number,
    private readonly onCut?: (cut: { size: number; kept: number }) => void,
  ) {
    super();
    this.file = createWriteStream(path);
    this.file.on('error', (error) => this.destroy(error));
  }

  /** Bytes written to this stream so far, kept or not. */
  get size(): number {
    return this.seen;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.seen += chunk.length;
    const room = this.maxBytes - this.kept;
    if (room <= 0) return done();
    const part = chunk.length <= room ? chunk : chunk.subarray(0, room);
    this.kept += part.length;
    this.file.write(part, (error) => done(error));
  }

  override _final(done: (error?: Error | null) => void): void {
    if (this.seen > this.kept) {
      this.onCut?.({ size: this.seen, kept: this.kept });
      this.file.write(cutMarker(this.seen, this.kept));
    }
    this.file.end(() => done());
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    if (!this.file.destroyed) this.file.destroy();
    done(error);
  }
}
