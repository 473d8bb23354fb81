import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { EXAMPLES_DIR } from './data.js';

/** The two crafted legs' ids, and the elevation each one's golden path expects from the same call. */
export const PAIR = {
  a: { id: 'pair/easy/sample_a', elevation: 33.52 },
  b: { id: 'pair/easy/sample_b', elevation: 33.91 },
} as const;

/**
 * Two legs that need different answers to one call: copies of the example leg sample_001 (geocode "Eiffel
 * Tower, Paris", then its elevation), the second expecting 33.91 m where the first expects 33.52 m. Both
 * still compute the same passcode (the compute stop reads 33). Written under `<dir>/pair/easy/`.
 */
export function writeConflictingLegs(dir: string): string {
  const source = JSON.parse(readFileSync(path.join(EXAMPLES_DIR, 'examples-linear', 'easy', 'sample_001.json'), 'utf8')) as {
    trail_id: string;
    stops: Array<{ stop_type: string; extracted_value: unknown }>;
  };
  const legs = path.join(dir, 'pair', 'easy');
  mkdirSync(legs, { recursive: true });
  for (const [name, { elevation }] of [['sample_a', PAIR.a], ['sample_b', PAIR.b]] as const) {
    const leg = structuredClone(source);
    leg.trail_id = `${source.trail_id}-${name}`;
    const tool = leg.stops.find((s) => s.stop_type === 'tool')!;
    if (tool.extracted_value !== PAIR.a.elevation) throw new Error(`sample_001 changed: its tool stop expects ${String(tool.extracted_value)}`);
    tool.extracted_value = elevation;
    writeFileSync(path.join(legs, `${name}.json`), JSON.stringify(leg, null, 2));
  }
  return dir;
}
