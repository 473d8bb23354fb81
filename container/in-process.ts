import { createRequire } from 'node:module';
import type { TrialWorkWire } from '../trial/handover.js';
import { bounded, type CommandOutcome } from './bounded.js';
import { LOADING_IN_PROCESS, type ProgramMain } from './program.js';

/** The built-in program's bundle when the work's command can run in this process: `node /ABSOLUTE/FILE ...` marked in_process. */
export function inProcessProgram(work: TrialWorkWire): string | null {
  const [runtime, file] = work.command;
  return work.in_process && runtime === 'node' && file?.startsWith('/') ? file : null;
}

type Write = NodeJS.WriteStream['write'];

/** Takes what is written to `stream` into `into` instead of passing it on; returns the undo. */
function capture(stream: NodeJS.WriteStream, into: ReturnType<typeof bounded>): () => void {
  const write = stream.write;
  stream.write = ((chunk: string | Uint8Array, encoding?: BufferEncoding | ((e?: Error | null) => void), done?: (e?: Error | null) => void) => {
    into.add(typeof chunk === 'string' ? Buffer.from(chunk, typeof encoding === 'string' ? encoding : 'utf8') : Buffer.from(chunk));
    const callback = typeof encoding === 'function' ? encoding : done;
    if (callback) process.nextTick(callback);
    return true;
  }) as Write;
  return () => {
    stream.write = write;
  };
}

/**
 * Runs a built-in program (./program.ts) in this process: its bundle loaded, its `main` called with the
 * command's arguments, in the work's folder and environment, under the work's timeout. With `echo` its
 * output goes to this process's stdout and stderr as it comes (the harness reads it live there); otherwise
 * it is kept, bounded. At the timeout the run ends as timed out: the runner posts the result and exits,
 * which ends the program (the container's first process is gone); the harness's own backstop kills the
 * container of a program that never yields.
 */
export async function runInProcess(work: TrialWorkWire, file: string, echo: boolean): Promise<CommandOutcome> {
  const started = Date.now();
  const out = bounded(work.limits.log_bytes);
  const err = bounded(work.limits.log_bytes);
  const undo = echo ? [] : [capture(process.stdout, out), capture(process.stderr, err)];
  process.chdir(work.workdir);
  Object.assign(process.env, work.env);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), work.timeout_ms)));
  const run = (async (): Promise<number> => {
    (globalThis as Record<string, unknown>)[LOADING_IN_PROCESS] = true;
    const { main } = createRequire(file)(file) as { main?: ProgramMain };
    if (typeof main !== 'function') throw new Error(`${file} exports no main`);
    return main(work.command.slice(2));
  })().catch((error: Error) => {
    process.stderr.write(`${work.command[1]}: ${error.message}\n`);
    return 1;
  });
  const ended = await Promise.race([run, timeout]);
  clearTimeout(timer);
  for (const u of undo) u();
  const output = { stdout: out.bytes(), stderr: err.bytes(), stdoutSize: out.size(), stderrSize: err.size() };
  const timedOut = ended === 'timeout';
  return { exit_code: timedOut ? null : ended, timed_out: timedOut, duration_ms: Date.now() - started, output };
}
