/**
 * Bounds on what a trial copies out of its sandbox, so no agent can fill the host's memory or disk
 * through its answer or its logs. A cut file is listed in trial.json's `cut_files`.
 */

/** The most of /app/answer.txt kept: an answer is a digit; a longer file is cut here, then read as usual. */
export const ANSWER_LIMIT_BYTES = 4096;

/** The most of each log kept (the agent's stdout and stderr, each file of its log folders). */
export const LOG_LIMIT_BYTES = 32 * 1024 * 1024;

/** A file that was cut: its name in the trial folder, its size in the sandbox, and the bytes kept. */
export interface FileCut {
  file: string;
  size: number;
  kept: number;
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
