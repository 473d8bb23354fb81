/**
 * bench:trials: (1) the harness's overhead per trial (everything but the agent's own run), median over
 * oracle trials on a warm image, goal <= 1.0 s; (2) the oracle over all 1,400 released legs on their
 * synthetic golden-world store, goal under 20 minutes on a 2-core machine, FA 100%.
 *
 *   npm run bench:trials [-- --overhead-only] [-- --data DIR] [-- --concurrency N]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { runJob } from '../harness/jobs/job.js';
import { LineReporter, QuietReporter } from '../harness/jobs/reporters.js';
import { aarDataDir, packagePath } from '../paths.js';
import { loadLegs } from '../tasks/aar/load.js';
import { ResponseStore } from '../tools/store/store.js';
import { synthesizeWorld } from '../tasks/aar/world/synthesize.js';
import type { AarFigures } from '../tasks/aar/scoring/report.js';
import { aggregate } from '../verifier/aggregate.js';
import { loadJobResults } from '../verifier/results.js';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const dataDir = flag('--data') ?? aarDataDir();
const concurrency = Number(flag('--concurrency') ?? 4);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-trials-'));

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function writeConfig(name: string, config: Record<string, unknown>): string {
  const file = path.join(tmp, `${name}.yaml`);
  writeFileSync(file, stringify({ name, output: path.join(tmp, 'jobs'), agents: [{ name: 'oracle' }], infra_retries: 1, resources: { memory_mb: 1024, cpus: 1, pids: 512 }, ...config }));
  return file;
}

try {
  // (1) overhead on a warm image: a first trial warms the image and caches, then 20 measured trials one at a time
  const examples = packagePath('tasks', 'examples');
  const store = packagePath('tools', 'stores', 'examples');
  await runJob({ configPath: writeConfig('warmup', { tasks: { path: examples, limit: 1 }, concurrency: 1, tools: { mode: 'replay', store } }), reporter: new QuietReporter() });
  const overheadJob = await runJob({
    configPath: writeConfig('overhead', { tasks: { path: examples }, attempts: 7, concurrency: 1, tools: { mode: 'replay', store } }),
    reporter: new QuietReporter(),
  });
  const records = loadJobResults(overheadJob.jobDir).map((r) => r.record);
  const overheads = records.map((r) => r.timings.overhead_s ?? 0);
  const agents = records.map((r) => r.timings.agent_s ?? 0);
  console.log(
    `overhead per trial (oracle, warm image, ${records.length} trials, one at a time): median ${median(overheads).toFixed(3)} s ` +
      `(min ${Math.min(...overheads).toFixed(3)}, max ${Math.max(...overheads).toFixed(3)}); agent's own run: median ${median(agents).toFixed(3)} s; goal <= 1.0 s -> ${median(overheads) <= 1 ? 'met' : 'NOT met'}`,
  );

  if (!argv.includes('--overhead-only')) {
    // (2) all released legs on their synthetic golden world
    const { legs, problems } = await loadLegs(dataDir);
    if (problems.length || !legs.length) throw new Error(`cannot load legs from ${dataDir}; pass --data DIR`);
    const worldDir = path.join(tmp, 'world');
    const world = await synthesizeWorld(legs, new ResponseStore(worldDir));
    console.log(`synthetic world: ${world.pages} pages, ${world.toolResponses} tool responses, ${world.conflicts.length} conflicts`);
    const started = Date.now();
    const job = await runJob({
      configPath: writeConfig('all-legs', { tasks: { path: dataDir }, concurrency, timeout_s: 300, tools: { mode: 'replay', store: worldDir } }),
      reporter: argv.includes('--quiet') ? new QuietReporter() : new LineReporter(),
    });
    const minutes = (Date.now() - started) / 60_000;
    const [all] = aggregate<AarFigures>(loadJobResults(job.jobDir));
    console.log(
      `oracle on ${job.planned} legs, concurrency ${concurrency}: ${minutes.toFixed(1)} min (${((minutes * 60) / job.planned).toFixed(2)} s/trial), ` +
        `FA ${(100 * (all.fa.mean ?? 0)).toFixed(1)}%, PVR ${(100 * (all.pvr.mean ?? 0)).toFixed(1)}%, RCR ${(100 * (all.rcr.mean ?? 0)).toFixed(1)}%, ` +
        `infra errors ${job.infraErrors}; goal < 20 min and FA 100% -> ${minutes < 20 && all.fa.mean === 1 ? 'met' : 'NOT met'}`,
    );
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
