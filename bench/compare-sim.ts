/**
 * bench:compare-sim: does `aar compare` keep its promises, end to end? For each scenario, REPLICATES
 * (default 2,000) simulated experiments on a job folder (trial.json, leg.json, score.json on real AAR
 * legs) through compare's own path: the configurations as loadConfigurations reads them, the budget check
 * (leg.json re-hashed every time), legs as the unit (attempts reduced per leg), each pair on its own legs,
 * the slices, both Holm families and the frontier. The first FOLDER_REPLICATES (default 100) of each
 * scenario write their scores into the folders and read them back with loadConfigurations, and must give
 * exactly the result of the same configurations built in memory, which the other replicates use (the
 * folders' I/O is the same every time; it is the statistics that need the replicates). Prints per scenario: the primary test's rejection rate at alpha 0.05 (type-I error where the
 * true difference is 0, power where not), the coverage of its 95% interval, how often interval and test
 * disagree, the secondary family's family-wise error (Holm) under the null, and for three configurations
 * the primary family-wise error raw and Holm-adjusted and the frontier's false dominance.
 *
 * The model: each replicate draws every leg's success probability per configuration anew from the
 * scenario's population (shared leg difficulty, near-certain legs, agent-by-leg interaction); a leg's
 * first attempt is a draw at that probability, each later one repeats the first with chance rho (correlated
 * attempts) or is a fresh draw. The true difference is the population mean of the reduced leg value's
 * expectation (mean: p; pass@k: 1 - P(all wrong); pass^k: P(all right)), computed once by Monte Carlo.
 * Usage: npm run bench:compare-sim [-- scenario-name-substring]; REPLICATES=200 for a quick look.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seededRandom } from '../common/random.js';
import type { Reducer } from '../common/reducers.js';
import { aarDataDir } from '../paths.js';
import { filterLegs } from '../tasks/aar/filter.js';
import { compareConfigurations } from '../verifier/compare/compare.js';
import { loadConfigurations } from '../verifier/compare/select.js';
import { isDeepStrictEqual } from 'node:util';
import { configurationsOf, writeOutcomes, writeSimJob, type SimConfig } from './compare-sim-jobs.js';
import { benchLegs } from './synthetic-trials.js';

const REPLICATES = Number(process.env.REPLICATES ?? 2000);
const FOLDER_REPLICATES = Number(process.env.FOLDER_REPLICATES ?? 100);
const ALPHA = 0.05;

interface Scenario {
  name: string;
  legs: number;
  attempts: number;
  reducer: Reducer;
  /** Chance that a later attempt repeats the first (0: independent attempts). */
  rho: number;
  configs: SimConfig[];
  /** Each configuration's success probability on one leg, drawn for one replicate. */
  leg(random: () => number): number[];
  /** The true difference of every pair where the design gives it exactly (0 under the null; d for the mean of a shift); else Monte Carlo. */
  exact?: number[];
}

const uniform = (random: () => number, lo: number, hi: number): number => lo + (hi - lo) * random();
const two = (cost = [0.01, 0.01]): SimConfig[] => [{ label: 'a', cost: cost[0] }, { label: 'b', cost: cost[1] }];
/** Shared difficulty: a on U[0.1, 0.7], b the same leg plus d. */
const shifted = (d: number) => (random: () => number): number[] => {
  const p = uniform(random, 0.1, 0.7);
  return [p, p + d];
};
/** 60% of legs near-certain for both (0.99 or 0.01), the rest shared difficulty with b ahead by d. */
const nearCertain = (d: number) => (random: () => number): number[] => {
  if (random() < 0.6) {
    const p = random() < 0.5 ? 0.99 : 0.01;
    return [p, p];
  }
  const p = uniform(random, 0.1, 0.6);
  return [p, p + d];
};
/** Agent by leg: b is good where a is bad (p_b = 1 - p_a + d), no shared difficulty. */
const interaction = (d: number) => (random: () => number): number[] => {
  const p = uniform(random, 0.1, 0.85);
  return [p, Math.min(1, 1 - p + d - 0.05)];
};

const scenarios: Scenario[] = [];
for (const d of [0, 0.1]) scenarios.push({ name: `shared difficulty, 100 legs x 1${d ? ', b +10 pp' : ''}`, legs: 100, attempts: 1, reducer: 'mean', rho: 0, configs: two(), leg: shifted(d), exact: [d] });
for (const d of [0, 0.2]) scenarios.push({ name: `small n, 30 legs x 1${d ? ', b +20 pp' : ''}`, legs: 30, attempts: 1, reducer: 'mean', rho: 0, configs: two(), leg: shifted(d), exact: [d] });
for (const d of [0, 0.25]) scenarios.push({ name: `near-certain legs (60%), 100 legs x 1${d ? ', b +25 pp on the rest' : ''}`, legs: 100, attempts: 1, reducer: 'mean', rho: 0, configs: two(), leg: nearCertain(d), exact: [0.4 * d] });
for (const d of [0, 0.1]) scenarios.push({ name: `agent x leg interaction, 100 legs x 3, mean${d ? ', b +10 pp' : ''}`, legs: 100, attempts: 3, reducer: 'mean', rho: 0, configs: two(), leg: interaction(d), exact: [d] });
for (const d of [0, 0.1]) scenarios.push({ name: `correlated attempts (rho 0.8), 100 legs x 3, mean${d ? ', b +10 pp' : ''}`, legs: 100, attempts: 3, reducer: 'mean', rho: 0.8, configs: two(), leg: shifted(d), exact: [d] });
for (const d of [0, 0.1]) scenarios.push({ name: `correlated attempts (rho 0.5), 100 legs x 3, pass@k${d ? ', b +10 pp per attempt' : ''}`, legs: 100, attempts: 3, reducer: 'pass@k', rho: 0.5, configs: two(), leg: shifted(d), ...(d ? {} : { exact: [0] }) });
scenarios.push({
  name: '3 configurations alike, c lost 30 legs to infrastructure, 100 legs x 1', legs: 100, attempts: 1, reducer: 'mean', rho: 0,
  configs: [{ label: 'a', cost: 0.01 }, { label: 'b', cost: 0.01 }, { label: 'c', cost: 0.01, lostLegs: new Set(Array.from({ length: 30 }, (_, i) => 3 * i)) }],
  leg: (random) => {
    const p = uniform(random, 0.1, 0.7);
    return [p, p, p];
  },
  exact: [0, 0, 0],
});

/** The expected reduced value of a leg at success probability p. */
function expectedValue(p: number, s: Scenario): number {
  const k = s.attempts;
  if (s.reducer === 'pass@k') return 1 - (1 - p) * (s.rho + (1 - s.rho) * (1 - p)) ** (k - 1);
  if (s.reducer === 'pass^k') return p * (s.rho + (1 - s.rho) * p) ** (k - 1);
  return p;
}

/** The true difference of each pair (b - a in pair order) in the population, by Monte Carlo over 400,000 legs. */
function truth(s: Scenario): number[] {
  if (s.exact) return s.exact;
  const random = seededRandom(99);
  const k = s.configs.length;
  const sums = new Array<number>(k).fill(0);
  const draws = 400_000;
  for (let i = 0; i < draws; i++) s.leg(random).forEach((p, c) => (sums[c] += expectedValue(p, s)));
  const out: number[] = [];
  for (let a = 0; a < k; a++) for (let b = a + 1; b < k; b++) out.push((sums[b] - sums[a]) / draws);
  return out;
}

interface Tally { rejected: number[]; covered: number[]; disagree: number; secondaryFwer: number; primaryFwerRaw: number; primaryFwerHolm: number; falseDominance: number }

function run(s: Scenario, legs: Parameters<typeof writeSimJob>[1], root: string, seed: number): { tally: Tally; truths: number[]; seconds: number } {
  const job = writeSimJob(path.join(root, `scenario-${seed}`), legs.slice(0, s.legs), s.configs, s.attempts);
  const truths = truth(s);
  const loaded = loadConfigurations([job.dir]);
  const random = seededRandom(seed);
  const tally: Tally = { rejected: truths.map(() => 0), covered: truths.map(() => 0), disagree: 0, secondaryFwer: 0, primaryFwerRaw: 0, primaryFwerHolm: 0, falseDominance: 0 };
  const started = process.hrtime.bigint();
  const outcomes: (0 | 1)[][][] = s.configs.map(() => Array.from({ length: s.legs }, () => new Array<0 | 1>(s.attempts).fill(0)));
  for (let r = 0; r < REPLICATES; r++) {
    for (let leg = 0; leg < s.legs; leg++) {
      s.leg(random).forEach((p, c) => {
        const first = random() < p ? 1 : 0;
        for (let k = 0; k < s.attempts; k++) outcomes[c][leg][k] = k === 0 || random() < s.rho ? first : random() < p ? 1 : 0;
      });
    }
    const fa = (c: number, leg: number, attempt: number): 0 | 1 => outcomes[c][leg][attempt - 1];
    const options = { reducer: s.reducer, seed: r, allowUnequal: true };
    const result = compareConfigurations(configurationsOf(job, loaded, fa), options);
    if (r < FOLDER_REPLICATES) {
      writeOutcomes(job, fa);
      const fromFolders = compareConfigurations(loadConfigurations([job.dir]), options);
      if (!isDeepStrictEqual(fromFolders.paired, result.paired) || !isDeepStrictEqual(fromFolders.frontier, result.frontier)) throw new Error(`${s.name}, replicate ${r}: the folders and the configurations in memory gave different results`);
    }
    const primaries = result.paired.filter((p) => p.role === 'primary');
    primaries.forEach((p, i) => {
      if (p.p_value! < ALPHA) tally.rejected[i]++;
      if (p.lo! <= truths[i] + 1e-12 && truths[i] - 1e-12 <= p.hi!) tally.covered[i]++;
    });
    if (primaries.some((p) => p.interval_vs_test)) tally.disagree++;
    if (primaries.some((p) => p.p_value! < ALPHA)) tally.primaryFwerRaw++;
    if (primaries.some((p) => p.p_holm! < ALPHA)) tally.primaryFwerHolm++;
    if (result.paired.some((p) => p.role === 'secondary' && p.p_holm !== null && p.p_holm < ALPHA)) tally.secondaryFwer++;
    if (result.frontier.some((f) => f.dominated_by.length)) tally.falseDominance++;
  }
  return { tally, truths, seconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

const pct = (n: number): string => (100 * n / REPLICATES).toFixed(1);
const only = process.argv[2];
const legs = filterLegs(await benchLegs(aarDataDir()), { variants: ['aar-linear'] });
const root = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-compare-sim-'));
console.log(`aar compare end to end (a job folder's configurations -> compareConfigurations), ${REPLICATES} replicates per scenario (the first ${Math.min(FOLDER_REPLICATES, REPLICATES)} also written to and read back from the folders: identical), alpha ${ALPHA}, 95% intervals`);
console.log('| scenario | reducer | true diff (pp) | primary rejected % | coverage % | interval/test disagree % | secondary FWER (Holm) % | primary FWER raw / Holm % | frontier dominance % | s |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
try {
  for (const [i, s] of scenarios.entries()) {
    if (only && !s.name.includes(only)) continue;
    const { tally, truths, seconds } = run(s, legs, root, 1000 + i);
    const nullAll = truths.every((t) => t === 0);
    const diffs = truths.map((t) => (100 * t).toFixed(1)).join(', ');
    const three = s.configs.length > 2;
    console.log(
      `| ${s.name} | ${s.reducer} | ${diffs} | ${tally.rejected.map(pct).join(', ')}${nullAll ? ' (type-I)' : ' (power)'} | ${tally.covered.map(pct).join(', ')} | ${pct(tally.disagree)} | ` +
        `${nullAll ? pct(tally.secondaryFwer) : '-'} | ${three ? `${pct(tally.primaryFwerRaw)} / ${pct(tally.primaryFwerHolm)}` : '-'} | ${nullAll ? pct(tally.falseDominance) : '-'} | ${seconds.toFixed(0)} |`,
    );
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
console.log(`load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.availableParallelism()} cores`);
