import type { TrialWorkResult } from './types.js';

/**
 * The part of a result that a sandbox ended without handing back carries (a Swarm service or a Kubernetes pod
 * killed at its timeout, or ended by itself): no output, no files, where it ran and for how long.
 */
export function noOutput(node: string | null, durationMs: number): Omit<TrialWorkResult, 'exitCode' | 'timedOut'> {
  const empty = Buffer.alloc(0);
  return { stdout: empty, stderr: empty, files: {}, dirs: {}, node, cuts: [], durationMs };
}
