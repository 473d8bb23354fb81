import { dependenciesOf, type Leg } from '../schema.js';

/**
 * The figures of a generation report: per variant and level, the paper's Table 2 columns (stops,
 * roadblocks, detours, diamonds, tool calls) against the level's ranges; the share of legs whose
 * dependency graph is a chain; and the mean pairwise Jaccard similarity of the pages legs visit, among
 * themselves and against other legs (the paper: 0.0005 over 10,000 pairs of released legs).
 */

export interface LegShape {
  /** All stops. */
  stops: number;
  /** Stops before diamond augmentation (each diamond adds three). */
  baseStops: number;
  roadblocks: number;
  detours: number;
  diamonds: number;
  /** Tool invocations in the golden trace (every step of every chain). */
  toolCalls: number;
  linear: boolean;
}

/** A diamond's merge: a tool stop depending on two or more stops. */
const isMerge = (leg: Leg, i: number): boolean => leg.stops[i]!.stop_type === 'tool' && dependenciesOf(leg, leg.stops[i]!).length >= 2;

export function legShape(leg: Leg): LegShape {
  const diamonds = leg.stops.filter((_, i) => isMerge(leg, i)).length;
  const tools = leg.stops.filter((s) => s.stop_type === 'tool').length;
  return {
    stops: leg.stops.length,
    baseStops: leg.stops.length - 3 * diamonds,
    roadblocks: tools - 3 * diamonds,
    detours: leg.stops.filter((s) => s.stop_type === 'reason').length,
    diamonds,
    toolCalls: leg.stops.reduce((n, s) => n + s.bridge.tool_chain.length, 0),
    linear: isLinear(leg),
  };
}

/** No stop but the finish line has two dependencies, and none has two dependents besides the finish line. */
export function isLinear(leg: Leg): boolean {
  const dependents = new Map<number, number>();
  for (const stop of leg.stops) {
    if (stop.stop_type === 'compute') continue;
    const deps = dependenciesOf(leg, stop);
    if (deps.length > 1) return false;
    for (const d of deps) dependents.set(d, (dependents.get(d) ?? 0) + 1);
  }
  return [...dependents.values()].every((n) => n <= 1);
}

/** The pages a leg visits: its seed and every stop's page. */
export function visitedPages(leg: Leg): Set<string> {
  return new Set([leg.seed_url, ...leg.stops.flatMap((s) => (s.page_url ? [s.page_url] : []))]);
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const x of a) if (b.has(x)) shared++;
  const union = a.size + b.size - shared;
  return union ? shared / union : 0;
}

/** Mean Jaccard over all pairs within `legs` (or of each with each of `others`); at most `limit` pairs, taken in order. */
export function meanJaccard(legs: readonly Leg[], others?: readonly Leg[], limit = 100_000): { mean: number | null; pairs: number; zeroShare: number | null } {
  const a = legs.map(visitedPages);
  const b = others ? others.map(visitedPages) : a;
  let sum = 0;
  let pairs = 0;
  let zero = 0;
  outer: for (let i = 0; i < a.length; i++) {
    for (let j = others ? 0 : i + 1; j < b.length; j++) {
      if (pairs >= limit) break outer;
      const s = jaccard(a[i]!, b[j]!);
      sum += s;
      if (s === 0) zero++;
      pairs++;
    }
  }
  return { mean: pairs ? sum / pairs : null, pairs, zeroShare: pairs ? zero / pairs : null };
}

export interface RangeFigure {
  mean: number;
  min: number;
  max: number;
  range: [number, number] | null;
  /** Legs inside the range. */
  inRange: number;
}

export function figure(values: readonly number[], range: [number, number] | null): RangeFigure {
  if (!values.length) return { mean: 0, min: 0, max: 0, range, inRange: 0 };
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return { mean: Math.round(mean * 100) / 100, min: Math.min(...values), max: Math.max(...values), range, inRange: range ? values.filter((v) => v >= range[0] && v <= range[1]).length : values.length };
}
