/**
 * bench:verify: `aar verify` over 1,400 trials (one per real leg), timed as a whole process.
 * Goal: at least 2x faster than the reference verifier in one Python process (about 2.3 ms/trial),
 * i.e. all 1,400 in under 1.6 s including Node's start.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { packagePath } from '../paths.js';
import { benchLegs, writeSyntheticJob } from './synthetic-trials.js';

const cli = packagePath('dist', 'harness', 'cli', 'main.js');
const legs = await benchLegs();
const jobDir = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-verify-'));
try {
  // Trial folders as the harness leaves them: score.json included, scored from the folder's files.
  writeSyntheticJob(jobDir, legs, 1, { withScores: true });
  const trialDirs = readdirSync(jobDir).filter((d) => !d.startsWith('.'));
  const logs = trialDirs.map((d) => readFileSync(path.join(jobDir, d, 'tool_log.jsonl'), 'utf8'));
  const bytes = logs.reduce((sum, l) => sum + Buffer.byteLength(l), 0);
  const calls = logs.reduce((sum, l) => sum + l.split('\n').filter(Boolean).length, 0);
  console.log(`${legs.length} trials, tool logs ${(bytes / 1e6).toFixed(1)} MB: ${(calls / legs.length).toFixed(1)} calls and ${(bytes / legs.length / 1e3).toFixed(1)} kB per trial`);

  const timeVerify = (...flags: string[]): { ms: number; out: string } => {
    const t = process.hrtime.bigint();
    // Exit status 1 when scores change (the run without score.json): the timing is what counts here.
    const run = spawnSync(process.execPath, [cli, 'verify', jobDir, ...flags], { encoding: 'utf8' });
    if (run.status !== 0 && !flags.includes('--fix')) throw new Error(`aar verify failed: ${run.stdout}${run.stderr}`);
    const out = run.stdout;
    return { ms: Number(process.hrtime.bigint() - t) / 1e6, out: out.split('\n')[0] };
  };
  const runs = Array.from({ length: 5 }, () => timeVerify());
  const times = runs.map((r) => r.ms).sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  const goal = 1600;
  console.log(`aar verify, whole process, median of 5: ${median.toFixed(0)} ms, ${(median / legs.length).toFixed(2)} ms/trial  [${runs[0].out}]`);
  console.log(`goal: under ${goal} ms for ${legs.length} trials (2x the reference's 2.3 ms/trial) -> ${median <= goal ? 'met' : 'NOT met'}`);

  // Without any score.json yet, verify creates 1,400 files; on some file systems creating a file costs ~0.5 ms of system time.
  for (const d of trialDirs) rmSync(path.join(jobDir, d, 'score.json'));
  const fresh = timeVerify('--fix');
  console.log(`for comparison, with no score.json yet (verify --fix writes all 1,400): ${fresh.ms.toFixed(0)} ms, ${(fresh.ms / legs.length).toFixed(2)} ms/trial  [${fresh.out}]`);
} finally {
  rmSync(jobDir, { recursive: true, force: true });
}
