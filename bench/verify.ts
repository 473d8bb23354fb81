/**
 * bench:verify: `aar verify` over 1,400 trials (one per real leg), timed as a whole process.
 * Goal: at least 2x faster than the reference verifier in one Python process (about 2.3 ms/trial),
 * i.e. all 1,400 in under 1.6 s including Node's start.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packagePath } from '../paths.js';
import { loadLegs } from '../tasks/load.js';
import { writeSyntheticJob } from './synthetic-trials.js';

const dataDir = process.argv[2] ?? process.env.AAR_DATA_DIR ?? path.resolve(packagePath(), '..', 'shared', 'aar', 'data');
const cli = packagePath('dist', 'harness', 'cli', 'main.js');

const { legs, problems } = await loadLegs(dataDir);
if (problems.length || !legs.length) {
  console.error(`cannot load legs from ${dataDir} (${problems.length} problems); pass the AAR data folder as argument`);
  process.exit(1);
}
const jobDir = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-verify-'));
try {
  writeSyntheticJob(jobDir, legs);
  const logBytes = readdirSync(jobDir)
    .filter((d) => !d.startsWith('.'))
    .reduce((sum, d) => sum + statSync(path.join(jobDir, d, 'tool_log.jsonl')).size, 0);
  console.log(`${legs.length} trials, tool logs ${(logBytes / 1e6).toFixed(1)} MB (${(logBytes / legs.length / 1e3).toFixed(1)} kB/trial)`);

  const timeVerify = (): { ms: number; out: string } => {
    const t = process.hrtime.bigint();
    const out = execFileSync(process.execPath, [cli, 'verify', jobDir], { encoding: 'utf8' });
    return { ms: Number(process.hrtime.bigint() - t) / 1e6, out: out.split('\n')[0] };
  };
  const first = timeVerify();
  console.log(`first run (writes every score.json): ${first.ms.toFixed(0)} ms, ${(first.ms / legs.length).toFixed(2)} ms/trial  [${first.out}]`);
  const runs = Array.from({ length: 5 }, timeVerify);
  const times = runs.map((r) => r.ms).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`re-verify (nothing changes), median of 5: ${median.toFixed(0)} ms, ${(median / legs.length).toFixed(2)} ms/trial  [${runs[0].out}]`);
  const goal = 1600;
  console.log(`goal: ${goal} ms for ${legs.length} trials -> ${median <= goal && first.ms <= goal ? 'met' : 'NOT met'}`);
} finally {
  rmSync(jobDir, { recursive: true, force: true });
}
