import { minimumDetectableDifference } from '../../common/stats.js';
import { int, plural } from '../../common/words.js';
import type { AgentEstimate } from './estimate.js';
import { paintStatus } from './colour.js';
import type { JobPreview } from './plan-preview.js';

const tokens = (n: number): string => (n >= 1e9 ? `${(n / 1e9).toFixed(2)} B` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)} K` : `${n}`);
const usd = (n: number | null | undefined): string => (n == null ? 'unknown (model not in the price table)' : `$${n < 100 ? n.toFixed(2) : int(n)}`);

function basis(e: AgentEstimate): string {
  if (e.basis === 'none') return 'no model';
  const step = `${int(e.perStep.input + e.perStep.output)} tokens/${e.unit}`;
  if (e.basis === 'paper') return `${step} (${e.source ?? 'AAR paper figures'}; no earlier job of this agent here)`;
  const m = e.measured!;
  return `${step} (measured: ${m.trials} trials in ${m.jobs.join(', ')}; ${(100 * m.budgetUsed).toFixed(0)}% of the ${e.unit === 'step' ? 'step budget' : `${e.unit}s allowed`} used)`;
}

/** Whether the planned legs can tell two configurations apart: the minimum detectable FA difference at 80% power. */
export function powerLine(legs: number, attempts: number): string {
  const mde = minimumDetectableDifference(legs, attempts);
  if (!mde) return 'power: too few legs to compare configurations';
  const pp = (x: number): string => (x > 1 ? 'over 100 pp' : `${(100 * x).toFixed(1)} pp`);
  const range = attempts > 1 ? `${pp(mde.attemptsIndependent)} (attempts independent) to ${pp(mde.attemptsIdentical)} (attempts all alike)` : pp(mde.attemptsIdentical);
  return `power: on ${plural(legs, 'leg')} x ${plural(attempts, 'attempt')}, \`aar compare\` detects an FA difference between two configurations of at least ${range} at 80% power (alpha 0.05; FA near 50%, configurations uncorrelated: a bound, shared leg difficulty makes it smaller)`;
}

/** The plain-text plan, one section per question: what runs, what is built, which keys, what it costs. */
export function formatPreview(p: JobPreview, colour = false): string {
  const lines: string[] = [];
  lines.push(`job ${p.job} -> ${p.jobDir}`);
  lines.push(`trials: ${int(p.planned)} planned (${plural(p.agents.length, 'agent')} x ${plural(p.legs, 'leg')} x ${plural(p.attempts, 'attempt')}), ${int(p.done)} already done, ${int(p.toRun)} to run`);
  const width = Math.max(...p.agents.map((a) => a.id.length), 5);
  for (const a of p.agents) lines.push(`  ${a.id.padEnd(width)}  ${int(a.toRun).padStart(6)} to run  ${int(a.done).padStart(6)} done`);
  lines.push(powerLine(p.legs, p.attempts));
  if (p.refusal.length) {
    lines.push(`${paintStatus('refused', colour)}: ${p.jobDir} holds trials of a different configuration; these keys differ:`);
    for (const r of p.refusal) lines.push(`  ${r}`);
  }
  lines.push(`concurrency: ${plural(p.concurrency.value, 'trial')} at a time (${p.concurrency.reason})`);

  if (!p.images.engine) lines.push('images: unknown (no Docker engine answers)');
  else {
    const missing = p.images.images.filter((i) => !i.present);
    lines.push(missing.length ? `images: ${missing.length} to build or pull` : 'images: all present');
    for (const i of p.images.images) lines.push(`  ${i.tag.padEnd(36)} ${i.role.padEnd(16)} ${i.present ? 'present' : i.role === 'debian' ? 'to pull (or bootstrap)' : 'to build'}`);
  }

  const missingKeys = p.keys.filter((k) => !k.set);
  lines.push(!p.keys.length ? 'keys: none needed' : missingKeys.length ? `keys: ${missingKeys.length} of ${p.keys.length} missing` : 'keys: all set');
  for (const k of p.keys) lines.push(`  ${k.name.padEnd(18)} ${(k.set ? 'set     ' : `${paintStatus('MISSING', colour)} `)} for ${k.neededBy.join(', ')}`);

  lines.push('estimate (trials to run):');
  for (const e of p.estimates) {
    const head = `  ${e.agentId.padEnd(width)}  ${int(e.trials)} trials, ${e.unit === 'step' ? 'step budget' : `${e.unit}s allowed`} ${int(e.stepBudget)}`;
    if (!e.usesModel) {
      lines.push(`${head}: no model, no tokens, $0`);
      continue;
    }
    const expected = e.expectedTokens === undefined ? '' : `; expected ${tokens(e.expectedTokens)} tokens, ${usd(e.expectedCostUsd)}`;
    lines.push(`${head}: at most ${tokens(e.maxTokens)} tokens, ${usd(e.maxCostUsd)}${expected}`);
    lines.push(`  ${' '.repeat(width)}  ${basis(e)}${e.priced ? `, priced as ${e.priced}` : ''}`);
  }
  const costs = p.estimates.map((e) => e.maxCostUsd);
  if (costs.every((c) => c !== null)) lines.push(`  total at most ${usd(costs.reduce((a, b) => a! + b!, 0))}`);
  return lines.join('\n') + '\n';
}
