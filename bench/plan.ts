/**
 * bench:plan: `aar run --dry-run configs/paper.yaml` (1,400 legs x 3 agents) with no API keys, timed as a
 * whole process, several times. Goal: under 2 s wall clock, with or without a Docker engine. The legs are
 * the released data where the tests find it (`--path`, over the config's `dataset: aar`, so no fetch is needed).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { aarDataDir, packagePath } from '../paths.js';

const runs = Number(process.argv[2] ?? 5);
const cli = packagePath('dist', 'harness', 'cli', 'main.js');
const env: NodeJS.ProcessEnv = { ...process.env };
for (const key of ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'GOOGLE_API_KEY', 'SERPER_API_KEY']) delete env[key];

/** Wall seconds of one whole process, and the machine's load average then (a busy machine stretches it). */
function time(extraEnv: NodeJS.ProcessEnv): { wall: number; load: number } {
  const start = performance.now();
  execFileSync(process.execPath, [cli, 'run', '--dry-run', packagePath('configs', 'paper.yaml'), '--path', aarDataDir()], { env: { ...env, ...extraEnv }, stdio: 'ignore' });
  return { wall: (performance.now() - start) / 1000, load: os.loadavg()[0] };
}

const noEngine = { DOCKER_HOST: `unix://${path.join(os.tmpdir(), 'aar-bench-no-engine.sock')}` };
for (const [label, extra] of [['with the engine', {}], ['no engine', noEngine]] as const) {
  const walls = Array.from({ length: runs }, () => time(extra));
  const sorted = walls.map((w) => w.wall).sort((a, b) => a - b);
  console.log(
    `${label}: median ${sorted[Math.floor(sorted.length / 2)].toFixed(2)} s, best ${sorted[0].toFixed(2)} s over ${runs} runs ` +
      `(load average ${walls.map((w) => w.load.toFixed(1)).join(', ')} on ${os.cpus().length} cores)`,
  );
}
