import type { LoadedLeg } from './load.js';
import { dependenciesOf, stepBudget } from './schema.js';

/** A readable summary of a leg: one line per stop with what it extracts and how it gets there. */
export function describeLeg({ id, file, leg }: LoadedLeg): string {
  const lines = [
    `${id}  (${file})`,
    `trail ${leg.trail_id}, ${leg.difficulty.level}, K=${leg.stops.length} stops, budget B=${stepBudget(leg)}, passcode ${leg.passcode}`,
    `seed: ${leg.seed_url}`,
    '',
    leg.riddle.trim(),
    '',
  ];
  for (const stop of leg.stops) {
    const deps = dependenciesOf(leg, stop);
    let how = stop.page_url ?? '';
    if (stop.stop_type === 'tool') how = stop.bridge.tool_chain.map((s) => `${s.tool_name}(${JSON.stringify(s.arguments)})`).join(' -> ');
    if (stop.stop_type === 'reason') how = `${stop.reason_transform}(stop ${stop.reason_source_stop})`;
    if (stop.stop_type === 'compute') how = stop.bridge.expression ?? '';
    lines.push(
      `  [${stop.index}] ${stop.stop_type.padEnd(7)} = ${JSON.stringify(stop.extracted_value)}  ${how}` +
        (deps.length ? `  (after ${deps.join(', ')})` : ''),
    );
  }
  return lines.join('\n') + '\n';
}
