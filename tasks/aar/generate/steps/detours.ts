import { applyTransform } from '../../golden/transforms.js';
import type { DraftStop } from '../draft.js';
import { draftStop, dropped, kept, type StepResult } from '../draft.js';
import type { Ledger } from '../ledger.js';
import { TRANSFORM_WORDS, transformsFor } from './reason-code.js';

/**
 * Detours (step 3, once values are known): analytical transforms of earlier values (the golden executor's
 * transforms, golden/transforms.ts), each placed right after its source. Sources are numeric stops; a
 * transform is chosen among those that fit the value, preferring ones the leg has not used.
 */
export function addDetours(stops: DraftStop[], count: number, random: () => number, ledger: Ledger): StepResult<DraftStop[]> {
  const numeric = stops.filter((s) => (s.type === 'page' || s.type === 'tool') && typeof s.value === 'number');
  if (count > 0 && !numeric.length) return dropped('no numeric value to take a detour from');
  const used = new Set<string>();
  const added: DraftStop[] = [];
  for (let i = 0; i < count; i++) {
    const source = numeric[Math.floor(random() * numeric.length)]!;
    const value = source.value as number;
    const isYear = source.valueType === 'date';
    const fits = transformsFor(value, isYear);
    const fresh = fits.filter((t) => !used.has(t));
    const transform = (fresh.length ? fresh : fits)[Math.floor(random() * (fresh.length ? fresh : fits).length)]!;
    const outcome = applyTransform(transform, value);
    if (!outcome.ok) {
      ledger.drop('build', 'detours', `${transform}(${value}): ${outcome.message}`);
      continue;
    }
    used.add(transform);
    ledger.keep('build', 'detours');
    added.push(
      draftStop({
        type: 'reason',
        role: { kind: 'detour' },
        target: `Reason: ${TRANSFORM_WORDS[transform]}`,
        pageUrl: source.pageUrl,
        value: Number(outcome.value),
        transform,
        sourceId: source.id,
        deps: [source.id],
        reasoning: `Analytical transform (${transform}) of the value of an earlier stop`,
      }),
    );
  }
  const out: DraftStop[] = [];
  for (const stop of stops) out.push(stop, ...added.filter((d) => d.sourceId === stop.id));
  return kept(out);
}
