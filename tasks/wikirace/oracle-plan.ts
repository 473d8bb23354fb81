import { distancesTo, UNREACHABLE } from './graph/distances.js';
import type { GraphWorld } from './load.js';
import type { WikiraceTask } from './schema.js';

/**
 * What the oracle needs to walk a shortest path whatever links a step offers: every page on some shortest
 * path from the source to the target, with its distance to the target. One search forward from the source,
 * one backward from the target (cached). Throws when the task's optimal length is not the graph's.
 */
export function oraclePlan(world: GraphWorld, task: WikiraceTask): Record<string, number> {
  const { graph } = world;
  const source = graph.pageOf(task.source)!;
  const toTarget = world.distances.to(graph.pageOf(task.target)!);
  const length = toTarget[source]!;
  if (length !== task.optimal_length) {
    throw new Error(`${task.id}: optimal_length is ${task.optimal_length} but the shortest path in the graph has ${length === UNREACHABLE ? 'no end' : length} links`);
  }
  const fromSource = distancesTo(graph, source);
  const plan: Record<string, number> = {};
  for (let p = 0; p < graph.pageCount; p++) {
    if (fromSource[p] !== UNREACHABLE && toTarget[p] !== UNREACHABLE && fromSource[p]! + toTarget[p]! === length) plan[graph.titles[p]!] = toTarget[p]!;
  }
  return plan;
}
