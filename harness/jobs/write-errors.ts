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
