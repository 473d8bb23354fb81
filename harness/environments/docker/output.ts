import { PassThrough } from 'node:stream';
import { ByteBudget } from '../../../trial/copy-limits.js';
import type { TrialWork, TrialWorkResult } from '../types.js';

/** A sink that keeps the first `limit` bytes written to it, and counts them all. */
function boundedSink(limit: number, onChunk?: (chunk: Buffer) => void): { sink: PassThrough; bytes: () => Buffer; size: () => number } {
  const chunks: Buffer[] = [];
  const budget = new ByteBudget(limit);
  const sink = new PassThrough();
  sink.on('data', (chunk: Buffer) => {
    onChunk?.(chunk);
    const part = budget.take(chunk);
    if (part.length) chunks.push(part);
  });
  return { sink, bytes: () => Buffer.concat(chunks), size: () => budget.size };
}

export type BoundedSink = ReturnType<typeof boundedSink>;

/** The work's stdout and stderr sinks, bounded by its limit, passing each chunk on to `work.onOutput` as it comes. */
export function outputSinks(work: TrialWork): { out: BoundedSink; err: BoundedSink } {
  const live = (stream: 'stdout' | 'stderr') => work.onOutput && ((chunk: Buffer) => work.onOutput!(stream, chunk));
  return { out: boundedSink(work.limits.logBytes, live('stdout')), err: boundedSink(work.limits.logBytes, live('stderr')) };
}

/** Resolves once the sinks have taken at least these many bytes (what the sandbox says it wrote). */
export function outputReached(out: BoundedSink, err: BoundedSink, bytes: { stdout: number; stderr: number }): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (out.size() < bytes.stdout || err.size() < bytes.stderr) return;
      out.sink.off('data', check);
      err.sink.off('data', check);
      resolve();
    };
    out.sink.on('data', check);
    err.sink.on('data', check);
    check();
  });
}

/** The output streams cut at the limit, as cuts of `stdout` and `stderr`. */
export function outputCuts(out: BoundedSink, err: BoundedSink, limit: number): TrialWorkResult['cuts'] {
  const cuts: TrialWorkResult['cuts'] = [];
  for (const [name, sink] of [['stdout', out], ['stderr', err]] as const) {
    if (sink.size() > limit) cuts.push({ path: name, size: sink.size(), kept: sink.bytes().length });
  }
  return cuts;
}
