import { plannedMde } from '../../common/stats.js';
import { int, plural } from '../../common/words.js';
import type { AgentEstimate } from './estimate.js';
import { paintStatus } from '../jobs/colour.js';
import type { JobPreview } from './preview.js';

const tokens = (n: number): string => (n >= 1e9 ? `${(n / 1e9).toFixed(2)} B` : n >= 1e6 ? `${(n / 1e6).toFixed(1)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)} K` : `${n}`);
const usd = (n: number | null | undefined): string => (n == null ? 'unknown (model not in the price table)' : `$${n < 100 ? n.toFixed(2) : int(n)}`);

function basis(e: AgentEstimate): string {
  if (e.basis === 'none') return 'no model';
  const step = `${int(e.perStep.input + e.perStep.output)} tokens/${e.unit}`;
  if (e.basis === 'paper') return `${step} (${e.source ?? 'AAR paper figures'}; no earlier job of this agent here)`;
  const m = e.measured!;
  const upstream = m.upstream === 'stand-in' ? `; answered by a stand-in, not the model's provider (${m.standIns.join('; ')}): say little of ${e.agentId}'s real tokens` : m.leftOut.length ? `; left out, answered by a stand-in model: ${m.leftOut.join(', ')}` : '';
  return `${step} (measured: ${m.trials} trials in ${m.jobs.join(', ')}; ${(100 * m.budgetUsed).toFixed(0)}% of the ${e.unit === 'step' ? 'step budget' : `${e.unit}s allowed`} used${upstream})`;
}

/**
 * Whether the planned legs can tell two configurations apart: the minimum detectable FA difference at 80%
 * power of the test compare runs (common/stats.ts plannedMde): exact McNemar with one attempt (its power
 * computed exactly), and with more, between attempts all alike (exact, the same test) and attempts
 * independent (the sign-flip test on per-leg means, approximated with t quantiles: said so).
 */
export function powerLine(legs: number, attempts: number): string {
  const mde = plannedMde(legs, attempts);
  const head = `power: on ${plural(legs, 'leg')} x ${plural(attempts, 'attempt')}, \`aar compare\``;
  const assumptions = '(alpha 0.05; FA near 50%, configurations uncorrelated: a bound, shared leg difficulty makes it smaller)';
  if (!mde || (mde.attemptsIdentical === null && mde.attemptsIndependent === null)) return `${head} cannot detect any FA difference between two configurations at 80% power: too few legs ${assumptions}`;
  // Rounded up, so the figure printed still has its 80% power.
  const pp = (x: number | null): string => (x === null ? 'none at 80% power' : `${(Math.ceil(1000 * x - 1e-9) / 10).toFixed(1)} pp`);
  const range =
    attempts > 1
      ? `${pp(mde.attemptsIndependent)} (attempts independent: approximate) to ${pp(mde.attemptsIdentical)} (attempts all alike: exact McNemar)`
      : `${pp(mde.attemptsIdentical)} (exact McNemar, its power computed exactly)`;
  return `${head} detects an FA difference between two configurations of at least ${range} at 80% power ${assumptions}`;
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
  lines.push(`environment: ${p.environment}`);
  if (p.world) {
    const { mode, coverage, refused } = p.world;
    if (!coverage.missing.length) lines.push(`world: ${mode} ${coverage.store} answers every golden call of the ${plural(coverage.tasks, 'leg')}`);
    else {
      const what = mode === 'pinned' ? 'their missing calls will be made live and recorded' : refused ? `${paintStatus('refused', colour)} (run them anyway with --allow-missing: their calls fail)` : 'run anyway (--allow-missing): their calls fail';
      lines.push(`world: ${mode} ${coverage.store} cannot answer the golden calls of ${plural(coverage.missing.length, 'leg')} of ${int(coverage.tasks)}: ${what}`);
      for (const m of coverage.missing.slice(0, 20)) lines.push(`  ${m.task}: ${plural(m.calls.length, 'call')}, e.g. ${m.calls[0]}`);
      if (coverage.missing.length > 20) lines.push(`  ... and ${coverage.missing.length - 20} more (--format json lists them all)`);
    }
  }

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
