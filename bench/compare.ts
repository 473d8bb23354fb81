/**
 * bench:compare: `aar compare --paper` on two 1,400-trial jobs (one trial per real leg each, synthetic
 * agents with tokens, cost and timeouts), timed as a whole process. Goal: under 5 s.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packagePath } from '../paths.js';
import { benchLegs, writeSyntheticJob } from './synthetic-trials.js';

const cli = packagePath('dist', 'harness', 'cli', 'main.js');
const legs = await benchLegs();
const root = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-compare-'));
const job = { name: 'bench', timeout_s: 600, budget: { steps: 'auto' }, tools: { mode: 'live', output_limit: 8000 } };
try {
  const a = path.join(root, 'job-a');
  const b = path.join(root, 'job-b');
  writeSyntheticJob(a, legs, 1, { withScores: true, agent: 'agent-a', job, spend: 1 });
  writeSyntheticJob(b, legs, 2, { withScores: true, agent: 'agent-b', job, spend: 3 });
  const args = [cli, 'compare', a, b, '--paper', '--format', 'json', '--out', path.join(root, 'compare.json')];
  const timeCompare = (): number => {
    const t = process.hrtime.bigint();
    execFileSync(process.execPath, args, { encoding: 'utf8' });
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  const times = Array.from({ length: 3 }, timeCompare).sort((x, y) => x - y);
  const median = times[1];
  const goal = 5000;
  console.log(`aar compare --paper, 2 x ${legs.length} trials, whole process, median of 3: ${median.toFixed(0)} ms (runs: ${times.map((t) => t.toFixed(0)).join(', ')} ms)`);
  console.log(`goal: under ${goal} ms -> ${median <= goal ? 'met' : 'NOT met'} (load average ${os.loadavg()[0].toFixed(1)} on ${os.availableParallelism()} cores)`);
  if (existsSync('/usr/bin/time')) {
    const timed = spawnSync('/usr/bin/time', ['-f', 'cpu %U %S', process.execPath, ...args], { encoding: 'utf8' });
    const [user, sys] = (/cpu ([\d.]+) ([\d.]+)/.exec(timed.stderr) ?? []).slice(1).map(Number);
    if (user !== undefined) console.log(`CPU of one run: ${(user + sys).toFixed(2)} s (${user.toFixed(2)} user + ${sys.toFixed(2)} sys)`);
  }
  // What every table stands on: the legs of the pairing, and each table's own n (its notes say which legs).
  const out = JSON.parse(readFileSync(path.join(root, 'compare.json'), 'utf8')) as {
    pairing: { sharedLegs: number; pairs: { a: string; b: string; sharedLegs: number }[] };
    tables: { id: string; rows: Record<string, unknown>[] }[];
  };
  console.log(`legs every configuration has a value for: ${out.pairing.sharedLegs}; pairs: ${out.pairing.pairs.map((p) => `${p.a} vs ${p.b} on ${p.sharedLegs} legs`).join('; ')}`);
  for (const t of out.tables) {
    const ns = t.rows.map((r) => r.n ?? r.trials ?? r.legs).filter((n): n is number => typeof n === 'number');
    console.log(`  ${t.id.padEnd(14)} ${t.rows.length} rows${ns.length ? `, n ${Math.min(...ns)}..${Math.max(...ns)}` : ''}`);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
}
