import { createWriteStream, type WriteStream } from 'node:fs';
import { Writable } from 'node:stream';
import { ByteBudget, cutMarker } from '../../trial/copy-limits.js';

/**
 * A host file that takes at most `maxBytes`: what comes after is counted and dropped, and on end a marker
 * line says the file was cut and `onCut` hears of it. Memory stays at one chunk whatever the writer sends.
 * Errors of the file (a full disk) are this stream's errors.
 */
export class CappedFileWriter extends Writable {
  private readonly budget: ByteBudget;
  private readonly file: WriteStream;

  constructor(
    path: string,
    maxBytes: number,
    private readonly onCut?: (cut: { size: number; kept: number }) => void,
  ) {
    super();
    this.budget = new ByteBudget(maxBytes);
    this.file = createWriteStream(path);
    this.file.on('error', (error) => this.destroy(error));
  }

  /** Bytes written to this stream so far, kept or not. */
  get size(): number {
    return this.budget.size;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const part = this.budget.take(chunk);
    if (!part.length) return done();
    this.file.write(part, (error) => done(error));
  }

  override _final(done: (error?: Error | null) => void): void {
    const cut = this.budget.cut;
    if (cut) {
      this.onCut?.(cut);
      this.file.write(cutMarker(cut.size, cut.kept));
    }
    this.file.end(() => done());
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    if (!this.file.destroyed) this.file.destroy();
    done(error);
  }
}
