import { open, write, close } from 'node:fs';
import { Writable } from 'node:stream';

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

/**
 * A log file fed by a stream that never fails the stream: the first write error is kept in `error` and
 * later data is dropped, so the process feeding it (an agent in a container) is drained as usual and the
 * caller decides after it ends. A plain fs.WriteStream emits 'error', which nothing upstream handles.
 */
export class LogFileSink extends Writable {
  error: NodeJS.ErrnoException | undefined;
  private fd: number | undefined;
  private readonly opened: Promise<void>;

  constructor(readonly file: string) {
    super();
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
    void this.opened.then(() => {
      if (this.fd === undefined || this.error) return done();
      write(this.fd, chunk, (error) => {
        if (error) this.fail(error);
        done();
      });
    });
  }

  override _final(done: (error?: Error | null) => void): void {
    void this.opened.then(() => {
      if (this.fd === undefined) return done();
      close(this.fd, (error) => {
        if (error) this.fail(error);
        this.fd = undefined;
        done();
      });
    });
  }
}
