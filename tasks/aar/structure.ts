import type { Leg } from './schema.js';
import type { InputProblem } from '../problems.js';

/**
 * Checks zod cannot express: every reference between stops points at a stop that exists,
 * indices are unique, and the dependency graph has no cycle.
 */
export function structureProblems(file: string, leg: Leg): InputProblem[] {
  const problems: InputProblem[] = [];
  const byIndex = new Map<number, number>();
  leg.stops.forEach((stop, position) => {
    if (byIndex.has(stop.index)) {
      problems.push({ file, path: `$.stops[${position}].index`, message: `index ${stop.index} is used by another stop too` });
    }
    byIndex.set(stop.index, position);
  });

  const edges = new Map<number, number[]>();
  leg.stops.forEach((stop, position) => {
    const refs: Array<[string, number]> = [];
    stop.depends_on?.forEach((r, i) => refs.push([`depends_on[${i}]`, r]));
    stop.bridge.referenced_stops.forEach((r, i) => refs.push([`bridge.referenced_stops[${i}]`, r]));
    if (stop.reason_source_stop !== null) refs.push(['reason_source_stop', stop.reason_source_stop]);
    const targets: number[] = [];
    for (const [where, ref] of refs) {
      if (!byIndex.has(ref)) {
        problems.push({ file, path: `$.stops[${position}].${where}`, message: `points to stop ${ref}, which does not exist` });
      } else if (ref === stop.index) {
        problems.push({ file, path: `$.stops[${position}].${where}`, message: `stop ${ref} depends on itself` });
      } else {
        targets.push(ref);
      }
    }
    edges.set(stop.index, targets);
    if (stop.stop_type === 'reason' && (stop.reason_transform === null || stop.reason_source_stop === null)) {
      problems.push({ file, path: `$.stops[${position}]`, message: 'a reason stop needs reason_transform and reason_source_stop' });
    }
    if (stop.stop_type === 'compute' && stop.bridge.expression === null) {
      problems.push({ file, path: `$.stops[${position}].bridge.expression`, message: 'a compute stop needs an expression' });
    }
  });

  const cycle = findCycle(edges);
  if (cycle) {
    const position = byIndex.get(cycle[0]) ?? 0;
    problems.push({ file, path: `$.stops[${position}].depends_on`, message: `dependency cycle: ${cycle.join(' -> ')}` });
  }
  return problems;
}

function findCycle(edges: Map<number, number[]>): number[] | null {
  const state = new Map<number, 'open' | 'done'>();
  const stack: number[] = [];
  const visit = (node: number): number[] | null => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of edges.get(node) ?? []) {
      const s = state.get(next);
      if (s === 'open') return [...stack.slice(stack.indexOf(next)), next];
      if (s === undefined) {
        const found = visit(next);
        if (found) return found;
      }
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of edges.keys()) {
    if (!state.has(node)) {
      const found = visit(node);
      if (found) return found;
    }
  }
  return null;
}
