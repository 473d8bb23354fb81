/**
 * bench:generate: `aar legs generate` end to end, as a process, RUNS times: legs accepted, attempts,
 * the pipeline's time and legs per minute (report.json), the whole process's wall time (start-up and the
 * reference legs read for the Jaccard figure included), the process's peak resident memory (its own measure, report.json's
 * peak_rss_mb, which holds the local model when one runs), model requests and tokens; with the machine's
 * load average before and after each run (the figures are wall-clock: say what else ran).
 *   npm run bench:generate -- [CONFIG] [aar legs generate flags...]     (default configs/generate-example.yaml)
 * Env: RUNS (default 3).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GenerationReport } from '../tasks/aar/generate/report-files.js';

const RUNS = Number(process.env.RUNS ?? 3);
const BIN = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'harness', 'cli', 'main.js');
const [config = 'configs/generate-example.yaml', ...flags] = process.argv.slice(2);
const load = (): string => os.loadavg().map((x) => x.toFixed(1)).join(' ');

console.log(`aar legs generate ${config} ${flags.join(' ')} x ${RUNS} (${os.cpus().length} cores)`);
console.log('| run | legs | attempts | pipeline s | legs/min | process s | peak MB | model requests | tokens in/out | load before | load after |');
console.log('|---:|---:|---:|---:|---:|---:|---:|---:|---|---|---|');
const rates: number[] = [];
for (let run = 1; run <= RUNS; run++) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-generate-'));
  const before = load();
  const started = performance.now();
  const r = spawnSync(process.execPath, [BIN, 'legs', 'generate', config, '--out', path.join(out, 'run'), '--format', 'json', ...flags], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const processS = ((performance.now() - started) / 1000).toFixed(1);
  const after = load();
  rmSync(out, { recursive: true, force: true });
  if (!r.stdout.trim().startsWith('{')) throw new Error(`run ${run} failed (exit ${r.status}): ${r.stderr.slice(-500)}`);
  const report = JSON.parse(r.stdout) as GenerationReport;
  rates.push(report.legs_per_minute);
  const m = report.model;
  console.log(`| ${run} | ${report.accepted} | ${report.attempts} | ${report.elapsed_s} | ${report.legs_per_minute} | ${processS} | ${report.peak_rss_mb} | ${m?.turns ?? 0} | ${m ? `${m.input_tokens}/${m.output_tokens}` : '-'} | ${before} | ${after} |`);
}
const sorted = [...rates].sort((a, b) => a - b);
console.log(`median legs per minute: ${sorted[Math.floor(sorted.length / 2)]}`);
