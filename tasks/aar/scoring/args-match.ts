import { pyFloat, type PyValue } from '../../../pycompat/index.js';
import { goldenArgText, type GoldenArg, type GoldenStep } from './leg-view.js';
import { isPyDict, pyGet } from '../../../pycompat/dict.js';

/**
 * One golden value against one agent value (the reference rule): their `str()` texts, lower-cased and
 * stripped, one inside the other; else both parse as floats (commas removed) within 1%, or both 0.
 */
export function valueMatches(golden: GoldenArg, agent: PyValue): boolean {
  const as = goldenArgText(agent);
  if (golden.text && as && (as.includes(golden.text) || golden.text.includes(as))) return true;
  const gn = golden.number;
  if (gn === null) return false;
  const an = pyFloat(as.split(',').join(''));
  if (an === null) return false;
  if (gn !== 0 && Math.abs(gn - an) / Math.abs(gn) < 0.01) return true;
  return gn === 0 && an === 0;
}

/**
 * Golden keys (not starting with "__") the agent gave with a non-None value, and how many of them match.
 * Golden keys the agent did not give are skipped, not held against it.
 */
export function compareArgs(step: GoldenStep, agentArgs: PyValue | undefined): { compared: number; matched: number } {
  let compared = 0;
  let matched = 0;
  if (!isPyDict(agentArgs)) return { compared, matched };
  for (const golden of step.args) {
    const agentValue = pyGet(agentArgs, golden.key);
    if (agentValue === undefined || agentValue === null) continue;
    compared++;
    if (valueMatches(golden, agentValue)) matched++;
  }
  return { compared, matched };
}

/**
 * The reference rule: empty golden arguments match any call; otherwise at least one key must be compared
 * and all compared keys must match (so a step whose keys all start with "__" never matches).
 */
export function referenceArgsMatch(step: GoldenStep, agentArgs: PyValue | undefined): boolean {
  if (step.matchesAnyArgs) return true;
  if (!step.argsAreDict) return false;
  const { compared, matched } = compareArgs(step, agentArgs);
  return compared > 0 && matched === compared;
}

/** The paper's rule for RCR: like the reference, but a step with nothing to compare matches on the name alone. */
export function lenientArgsMatch(step: GoldenStep, agentArgs: PyValue | undefined): boolean {
  if (step.matchesAnyArgs || !step.argsAreDict) return true;
  const { compared, matched } = compareArgs(step, agentArgs);
  return matched === compared;
}
