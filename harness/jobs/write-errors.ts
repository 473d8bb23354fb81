import { open, write, close } from 'node:fs';
import { Writable } from 'node:stream';
import { ByteBudget, cutMarker } from '../../trial/copy-limits.js';

/** Error codes of a write on the host that retrying the trial cannot fix: the disk, not the trial, is wrong. */
const HOST_WRITE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'ENOENT', 'EACCES', 'EPERM', 'EFBIG']);
/** Only file-system calls count (ENOENT on `connect` is a missing Docker socket, an infrastructure error). */
const FILE_SYSCALLS = new Set(['access', 'stat', 'open', 'write', 'writev', 'close', 'fsync', 'mkdir', 'mkdtemp', 'rename', 'unlink', 'rmdir', 'copyfile', 'appendfile', 'scandir']);

export function isHostWriteError(error: unknown): error is NodeJS.ErrnoException {
  const e = error as NodeJS.ErrnoException | undefined;
  return !!e && typeof e.code === 'string' && HOST_WRITE_CODES.has(e.code) && (e.syscall === undefined || FILE_SYSCALLS.has(e.syscall));
}

/** The job folder (or the disk under it) cannot be written: the job stops cleanly, resumable once fixed. */
export class HostWriteFailure extends Error {
  constructor(readonly cause: NodeJS.ErrnoException) {
    super(cause.message.split('\n')[0]);
  }
}

/** A log's size limit, and who hears that it was cut (after the stream ends). */
export interface LogLimit {
  maxBytes: number;
  onCut(cut: { size: number; kept: number }): void;
}

/**
 * A log file fed by a stream that never fails the stream: the first write error is kept in `error` and
 * later data is dropped, so the process feeding it (an agent in a container) is drained as usual and the
 * caller decides after it ends. A plain fs.WriteStream emits 'error', which nothing upstream handles.
 * With a limit, what comes past it is dropped and a marker line ends the file.
 */
export class LogFileSink extends Writable {
  error: NodeJS.ErrnoException | undefined;
  private fd: number | undefined;
  private readonly opened: Promise<void>;
  private readonly budget: ByteBudget | undefined;

  constructor(
    readonly file: string,
    private readonly limit?: LogLimit,
  ) {
    super();
    this.budget = limit && new ByteBudget(limit.maxBytes);
    this.opened = new Promise((resolve) =>
      open(file, 'w', (error, fd) => {
        if (error) this.fail(error);
        else this.fd = fd;
        resolve();
      }),
    );
  }

  private fail(error: NodeJS.ErrnoException): void {
    if (!error.message.includes(this.file)) error.message = `${this.file}: ${error.message}`;
    this.error ??= error;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    const part = this.budget ? this.budget.take(chunk) : chunk;
    if (!part.length) return done();
    void this.opened.then(() => {
      if (this.fd === undefined || this.error) return done();
      write(this.fd, part, (error) => {
        if (error) this.fail(error);
        done();
      });
    });
  }

  override _final(done: (error?: Error | null) => void): void {
    const cut = this.budget?.cut;
    if (cut) this.limit!.onCut(cut);
    void this.opened.then(() => {
      const fd = this.fd;
      if (fd === undefined) return done();
      const closeFile = () =>
        close(fd, (error) => {
          if (error) this.fail(error);
          this.fd = undefined;
          done();
        });
      if (!cut || this.error) return closeFile();
      write(fd, cutMarker(cut.size, cut.kept), (error) => {
        if (error) this.fail(error);
        closeFile();
      });
    });
  }
}
