import { evaluateExpression } from '../../../../pycompat/interpreter/expression.js';
import { pyStr } from '../../../../pycompat/interpreter/index.js';
import { KNOWN_DEFS } from '../../../../pycompat/interpreter/known-defs.js';
import { applyTransform } from '../../golden/transforms.js';
import { FINISH_OPS, draftStop, dropped, kept, type DraftStop, type FinishOp, type StepResult } from '../draft.js';
import type { GenerationTools } from '../tool-runner.js';
import { mergeCode } from './augment.js';
import { runStopChain } from './prevalidate.js';

/**
 * Step 7, execute: every chain run again in dependency order (through the tool service: a value that
 * changed since its dry run drops the leg, as an unstable API), merges and detours recomputed from the
 * values they take, and the finish line: a modular-arithmetic reduction of earlier values to one digit y*.
 * The written leg then goes through the golden executor as validator (pipeline.ts).
 */

/** The finish line's expression over whole values, as Python. */
export function finishExpression(op: FinishOp, values: readonly number[]): string {
  const v = values.map((x) => String(Math.trunc(x)));
  switch (op) {
    case 'sum_mod10':
      return `(${v.join(' + ')}) % 10`;
    case 'abs_diff_mod10':
      return `abs(${v[0]} - ${v[1]}) % 10`;
    case 'product_mod10':
      return `(${v[0]} * ${v[1]}) % 10`;
    case 'digital_root_sum':
      return `digital_root(${v.join(' + ')})`;
  }
}

export function finishCode(op: FinishOp, expression: string): string {
  return op === 'digital_root_sum' ? `${KNOWN_DEFS.digital_root.source}result = ${expression}\nprint(result)` : `result = ${expression}\nprint(result)`;
}

function pickFinish(stops: DraftStop[], random: () => number): { op: FinishOp; refs: DraftStop[] } {
  const numeric = stops.filter((s) => typeof s.value === 'number' && s.role.kind !== 'branch');
  const op = FINISH_OPS[Math.floor(random() * FINISH_OPS.length)]!;
  const size = op === 'abs_diff_mod10' || op === 'product_mod10' ? 2 : 2 + Math.floor(random() * 3);
  // One of each kind first (a merge, a detour, a roadblock, a page), then any.
  const order = ['merge', 'detour', 'roadblock', 'page'].flatMap((k) => numeric.filter((s) => s.role.kind === k).slice(0, 1));
  const rest = numeric.filter((s) => !order.includes(s)).sort(() => random() - 0.5);
  const refs = [...order, ...rest].slice(0, Math.min(size, numeric.length));
  return { op: refs.length >= 2 ? op : 'sum_mod10', refs: stops.filter((s) => refs.includes(s)) };
}

export async function execute(stops: DraftStop[], tools: GenerationTools, random: () => number): Promise<StepResult<DraftStop[]>> {
  const byId = new Map(stops.map((s) => [s.id, s]));
  for (const stop of stops) {
    const role = stop.role;
    if (role.kind === 'roadblock' || role.kind === 'branch') {
      const value = await runStopChain(stop, tools);
      if (!value.ok) return dropped(`stop "${stop.target}": ${value.reason}`);
      if (value.value !== stop.value) return dropped(`API instability: ${role.template} gave ${value.value}, its dry run ${stop.value}`);
    } else if (role.kind === 'merge') {
      const [a, b] = stop.deps.map((d) => byId.get(d)!.value as number);
      const code = mergeCode(role.op, a!, b!);
      const answer = await tools.call({ tool: 'python_execute_code', args: { code } });
      if (!answer.ok) return dropped(`the merge program failed: ${answer.text}`);
      stop.chain = [{ ...stop.chain[0]!, arguments: { code } }];
      stop.value = Number(answer.text.trim());
    } else if (role.kind === 'detour') {
      const outcome = applyTransform(stop.transform!, byId.get(stop.sourceId!)!.value!);
      if (!outcome.ok) return dropped(`detour ${stop.transform}: ${outcome.message}`);
      stop.value = Number(outcome.value);
    }
  }
  const { op, refs } = pickFinish(stops, random);
  if (refs.length < 2) return dropped('fewer than two numeric values for the finish line');
  const expression = finishExpression(op, refs.map((r) => r.value as number));
  const result = evaluateExpression(expression);
  if (!result.ok) return dropped(`the finish expression ${expression} fails: ${result.message}`);
  const passcode = Number(pyStr(result.value));
  if (!Number.isInteger(passcode) || passcode < 0 || passcode > 9) return dropped(`the finish expression gives ${pyStr(result.value)}, not one digit`);
  const finish = draftStop({
    type: 'compute',
    role: { kind: 'finish', op },
    target: `Compute: ${expression}`,
    value: passcode,
    deps: refs.map((r) => r.id),
    reasoning: `Finish line (${op}): ${expression} = ${passcode}`,
  });
  return kept([...stops, finish]);
}
