/**
 * bench:compare-sim: does compare's primary comparison keep its promises? 1,000 pairs of synthetic
 * configurations per scenario (true FA difference 0 and 5 pp; 1 and 3 attempts per leg; 100 and 1,400
 * legs; 30 legs as a small-n check), run straight through the statistics compare uses (attempts reduced
 * per leg by their mean, then comparePaired), no folders and no Docker. Prints the primary test's
 * rejection rate at alpha = 0.05 (the type-I error when the difference is 0, the power at 5 pp) and the
 * coverage of its 95% interval. Goal: both within 2 points of nominal.
 *
 * The legs are drawn anew for every pair from one population: a leg's success probability is uniform on
 * [0.1, 0.7] for configuration a and that plus the true difference for b (shared leg difficulty, so the
 * two are correlated as real frameworks are); each attempt is an independent draw on its leg.
 */
import os from 'node:os';
import { seededRandom } from '../common/random.js';
import { comparePaired } from '../verifier/compare/paired-test.js';

const PAIRS = Number(process.env.SIM_PAIRS ?? 1000);
const ALPHA = 0.05;

interface Scenario { diff: number; attempts: number; legs: number }
const scenarios: Scenario[] = [];
for (const legs of [30, 100, 1400]) for (const attempts of [1, 3]) for (const diff of [0, 0.05]) scenarios.push({ diff, attempts, legs });

function simulate({ diff, attempts, legs }: Scenario, seed: number): { rejections: number; covered: number; methods: Set<string> } {
  const random = seededRandom(seed);
  let rejections = 0;
  let covered = 0;
  const methods = new Set<string>();
  const a = new Array<number>(legs);
  const b = new Array<number>(legs);
  for (let pair = 0; pair < PAIRS; pair++) {
    for (let i = 0; i < legs; i++) {
      const p = 0.1 + 0.6 * random();
      let sa = 0;
      let sb = 0;
      for (let k = 0; k < attempts; k++) {
        if (random() < p) sa++;
        if (random() < p + diff) sb++;
      }
      a[i] = sa / attempts;
      b[i] = sb / attempts;
    }
    const r = comparePaired(a, b, { seed: pair, resamples: 2000 });
    methods.add(`${r.test}, ${r.interval}`);
    if (r.p! < ALPHA) rejections++;
    if (r.lo! <= diff + 1e-12 && diff - 1e-12 <= r.hi!) covered++;
  }
  return { rejections, covered, methods };
}

const pct = (x: number): string => (100 * x).toFixed(1);
console.log(`compare's primary test and interval on ${PAIRS} simulated pairs per scenario (alpha ${ALPHA}, 95% intervals)`);
console.log('legs  attempts  true diff  rejected %  coverage %  method');
const started = process.hrtime.bigint();
let worst = 0;
for (const [i, s] of scenarios.entries()) {
  const { rejections, covered, methods } = simulate(s, 1000 + i);
  const rejected = rejections / PAIRS;
  const coverage = covered / PAIRS;
  const off = Math.max(Math.abs(coverage - 0.95), s.diff === 0 ? Math.abs(rejected - ALPHA) : 0);
  if (s.legs >= 100) worst = Math.max(worst, off);
  console.log(
    `${String(s.legs).padStart(4)}  ${String(s.attempts).padStart(8)}  ${pct(s.diff).padStart(7)} pp  ${pct(rejected).padStart(10)}  ${pct(coverage).padStart(10)}  ${[...methods].join('; ')}` +
      (s.diff === 0 ? '   <- type-I error' : '   <- power'),
  );
}
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.log(`goal (100 and 1,400 legs): type-I error and coverage within 2 points of nominal -> ${worst <= 0.02 ? 'met' : 'NOT met'} (worst ${pct(worst)} points off)`);
console.log(`${seconds.toFixed(1)} s (load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores)`);
