/**
 * How a leg's attempts become the leg's one value (as Inspect's epoch reducers): `mean` (the share of
 * attempts right), `pass@k` (1 when any of the leg's k attempts is right), `pass^k` (1 when all are).
 * Non-binary metrics (PVR, RCR) are always averaged. Here, below compare and the task families' paper
 * views, so both reduce a leg the same way.
 */
export const REDUCERS = ['mean', 'pass@k', 'pass^k'] as const;
export type Reducer = (typeof REDUCERS)[number];

/** A leg's one value of a metric from its attempts; null when no attempt defines it. */
export function reduceLeg(values: readonly (number | null | undefined)[], reducer: Reducer, binary: boolean): number | null {
  const defined = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (!defined.length) return null;
  if (binary && reducer === 'pass@k') return Math.max(...defined);
  if (binary && reducer === 'pass^k') return Math.min(...defined);
  return defined.reduce((s, v) => s + v, 0) / defined.length;
}

/** Whether the reducer reads every attempt of a leg as one draw (pass@k, pass^k): then attempts are part of the budget. */
export const usesEveryAttempt = (reducer: Reducer): boolean => reducer !== 'mean';
