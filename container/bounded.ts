import { ByteBudget } from '../trial/copy-limits.js';
import type { Output } from './trial-result.js';

/** Keeps the first `limit` bytes of a stream in memory, and counts them all. */
export function bounded(limit: number): { add: (c: Buffer) => void; bytes: () => Buffer; size: () => number } {
  const chunks: Buffer[] = [];
  const budget = new ByteBudget(limit);
  return {
    add(c) {
      const part = budget.take(c);
      if (part.length) chunks.push(part);
    },
    bytes: () => Buffer.concat(chunks),
    size: () => budget.size,
  };
}

/** How the work's command ended, as the trial runner posts it. */
export interface CommandOutcome {
  exit_code: number | null;
  timed_out: boolean;
  duration_ms: number;
  output: Output;
}
