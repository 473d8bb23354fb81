import type { DraftStop } from '../draft.js';
import { dropped, kept, type StepResult } from '../draft.js';
import type { Ledger } from '../ledger.js';
import type { GenerationTools } from '../tool-runner.js';
import { runChain } from '../../world/golden-calls.js';
import { chainValue } from '../../world/golden-value.js';

/**
 * Step 4, pre-validate: every candidate chain is run, step by step, through the tool service; a chain that
 * fails (an error answer, a step whose input an earlier answer did not give, an answer without the value)
 * is dropped with its reason. The first `wanted` chains that hold are kept, each after its page stop.
 */

/** Runs a stop's chain; its value, or why there is none. */
export async function runStopChain(stop: DraftStop, tools: GenerationTools): Promise<StepResult<number>> {
  const role = stop.role;
  if (role.kind !== 'roadblock' && role.kind !== 'branch') return dropped('not a template chain');
  let texts: string[];
  try {
    texts = await runChain(stop.chain, async (call) => {
      const answer = await tools.call(call);
      if (!answer.ok) throw new Error(`${call.tool} answered ${answer.text.replace(/^Error: /, '').split('\n')[0]}`);
      return answer.text;
    });
  } catch (error) {
    return dropped(`${role.template}: ${(error as Error).message}`);
  }
  // The value as the golden executor reads it, so a leg's golden value is what the authors' executor would give.
  const last = stop.chain.at(-1)!;
  const read = chainValue(last.tool_name, last.output_key, texts.at(-1) ?? '');
  if (!read.ok || typeof read.value !== 'number' || !Number.isFinite(read.value)) return dropped(`${role.template}: the golden executor reads no number as ${role.output} from the last answer`);
  return kept(read.value);
}

/** The page stops with the kept roadblocks after their pages, or why the leg cannot have enough. */
export async function prevalidate(pages: DraftStop[], candidates: DraftStop[], wanted: { min: number; want: number }, tools: GenerationTools, ledger: Ledger): Promise<StepResult<DraftStop[]>> {
  const keptStops: DraftStop[] = [];
  for (const candidate of candidates) {
    if (keptStops.length >= wanted.want) break;
    const value = await runStopChain(candidate, tools);
    if (!value.ok) {
      ledger.drop('prevalidate', 'chains', value.reason);
      continue;
    }
    ledger.keep('prevalidate', 'chains');
    keptStops.push({ ...candidate, value: value.value, valueType: 'number' });
  }
  if (keptStops.length < wanted.min) return dropped(`${keptStops.length} roadblock chains held of ${candidates.length} tried; the level needs ${wanted.min}`);
  const out: DraftStop[] = [];
  for (const page of pages) out.push(page, ...keptStops.filter((s) => s.role.kind === 'roadblock' && s.role.fromId === page.id));
  return kept(out);
}
