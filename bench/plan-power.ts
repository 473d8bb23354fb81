/**
 * bench:plan-power: is the minimum detectable difference `aar plan` prints really 80% power? For each
 * case, the plan's own power line (harness/plan/text.ts) is printed, its figure read back (rounded
 * as printed) and EXPERIMENTS (default 10,000) paired experiments are simulated under the plan's
 * assumptions (each configuration's FA near 50%: a at 50 - d/2, b at 50 + d/2, independent, a leg's
 * attempts independent draws) and tested by compare's own row statistics (comparePaired: exact McNemar on
 * 0/1 legs, the sign-flip test on per-leg means). Goal: within 1 point of 80% where the plan says exact.
 */
import os from 'node:os';
import { seededRandom } from '../common/random.js';
import { powerLine } from '../harness/plan/text.js';
import { comparePaired } from '../verifier/compare/paired-test.js';

const EXPERIMENTS = Number(process.env.EXPERIMENTS ?? 10_000);
const cases: { legs: number; attempts: number }[] = [
  { legs: 40, attempts: 1 }, { legs: 100, attempts: 1 }, { legs: 400, attempts: 1 }, { legs: 1400, attempts: 1 },
  { legs: 40, attempts: 3 }, { legs: 100, attempts: 3 },
];

/** The first figure of the power line (attempts independent when there are several), in [0, 1]. */
function printedMde(line: string): { mde: number; exact: boolean } {
  const m = /at least ([\d.]+) pp \(([^)]*)\)/.exec(line);
  if (!m) throw new Error(`no figure in: ${line}`);
  return { mde: Number(m[1]) / 100, exact: !m[2].includes('approximate') };
}

function power(legs: number, attempts: number, d: number, seed: number): number {
  const random = seededRandom(seed);
  const a = new Array<number>(legs);
  const b = new Array<number>(legs);
  let rejected = 0;
  for (let e = 0; e < EXPERIMENTS; e++) {
    for (let i = 0; i < legs; i++) {
      let sa = 0;
      let sb = 0;
      for (let k = 0; k < attempts; k++) {
        if (random() < 0.5 - d / 2) sa++;
        if (random() < 0.5 + d / 2) sb++;
      }
      a[i] = sa / attempts;
      b[i] = sb / attempts;
    }
    if (comparePaired(a, b, { seed: e }).p! < 0.05) rejected++;
  }
  return rejected / EXPERIMENTS;
}

console.log(`aar plan's printed MDE against ${EXPERIMENTS.toLocaleString('en-US')} simulated experiments each, tested by compare's comparePaired (alpha 0.05)`);
console.log('| legs x attempts | printed MDE | how the plan computes it | simulated power at it | off 80% by (points) | s |');
console.log('|---|---|---|---|---|---|');
for (const [i, c] of cases.entries()) {
  const line = powerLine(c.legs, c.attempts);
  const { mde, exact } = printedMde(line);
  const started = process.hrtime.bigint();
  const p = power(c.legs, c.attempts, mde, 38_000 + i);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`| ${c.legs} x ${c.attempts} | ${(100 * mde).toFixed(1)} pp | ${exact ? 'exact McNemar' : 'approximate (sign-flip on per-leg means)'} | ${(100 * p).toFixed(1)}% | ${(100 * (p - 0.8)).toFixed(1)} | ${seconds.toFixed(0)} |`);
}
console.log(`standard error of a simulated power near 80%: ${(100 * Math.sqrt(0.16 / EXPERIMENTS)).toFixed(2)} points; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} on ${os.availableParallelism()} cores`);
