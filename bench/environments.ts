/**
 * bench:environments: the same oracle + random job on `docker` and on `swarm` (this engine must be a
 * swarm manager: `docker swarm init --advertise-addr 127.0.0.1`): are the scores identical, and what is
 * each environment's overhead per trial (trial time minus the agent's own run)?
 *
 *   npm run bench:environments [-- --legs 100] [-- --data DIR] [-- --concurrency 4]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { stringify } from 'yaml';
import { runJob } from '../harness/jobs/job.js';
import { QuietReporter } from '../harness/jobs/reporters.js';
import { aarDataDir } from '../paths.js';
import { loadLegs } from '../tasks/aar/load.js';
import { synthesizeWorld } from '../tasks/aar/world/synthesize.js';
import { ResponseStore } from '../tools/store/store.js';
import { loadJobResults } from '../verifier/results.js';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const dataDir = flag('--data') ?? aarDataDir();
const legCount = Number(flag('--legs') ?? 100);
const concurrency = Number(flag('--concurrency') ?? 4);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-env-'));

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

try {
  const { legs, problems } = await loadLegs(dataDir);
  if (problems.length || !legs.length) throw new Error(`cannot load legs from ${dataDir}; pass --data DIR`);
  const worldDir = path.join(tmp, 'world');
  await synthesizeWorld(legs, new ResponseStore(worldDir));
  const outcomes: Record<string, { scores: Record<string, unknown>; overhead: number[]; minutes: number; infra: number; nodes: Set<string> }> = {};
  for (const environment of ['docker', 'swarm']) {
    const file = path.join(tmp, `${environment}.yaml`);
    writeFileSync(
      file,
      stringify({
        name: `aar-bench-${environment}`,
        output: path.join(tmp, 'jobs'),
        tasks: { path: dataDir, sample: { n: legCount, seed: 1 } },
        agents: [{ name: 'oracle' }, { name: 'random' }],
        environment,
        // Named apart from real jobs' services and networks on a shared engine.
        ...(environment === 'swarm' ? { swarm: { name_prefix: 'aar-test-bench-' } } : {}),
        concurrency,
        timeout_s: 300,
        infra_retries: 2,
        resources: { memory_mb: 1024, cpus: 1, pids: 512 },
        tools: { mode: 'replay', store: worldDir },
      }),
    );
    const started = Date.now();
    const job = await runJob({ configPath: file, reporter: new QuietReporter() });
    const results = loadJobResults(job.jobDir);
    outcomes[environment] = {
      scores: Object.fromEntries(results.map((r) => {
        const { wall_s: _w, ...score } = (r.score ?? {}) as Record<string, unknown>;
        return [path.basename(r.dir), { status: r.record.status, score }];
      })),
      overhead: results.map((r) => r.record.timings.overhead_s ?? NaN).filter(Number.isFinite),
      minutes: (Date.now() - started) / 60_000,
      infra: job.infraErrors,
      nodes: new Set(results.map((r) => String((r.record as { environment?: { node?: string } }).environment?.node))),
    };
    const o = outcomes[environment];
    console.log(
      `${environment}: ${results.length} trials (${legCount} legs x oracle, random; concurrency ${concurrency}) in ${o.minutes.toFixed(1)} min; ` +
        `overhead per trial median ${median(o.overhead).toFixed(2)} s (min ${Math.min(...o.overhead).toFixed(2)}, max ${Math.max(...o.overhead).toFixed(2)}); ` +
        `infra errors ${o.infra}; nodes ${[...o.nodes].join(', ')}`,
    );
  }
  const same = isDeepStrictEqual(outcomes.docker.scores, outcomes.swarm.scores);
  const differing = Object.keys(outcomes.docker.scores).filter((k) => !isDeepStrictEqual(outcomes.docker.scores[k], outcomes.swarm.scores[k]));
  console.log(`scores identical on docker and swarm: ${same ? 'yes' : `NO (${differing.length} trials differ: ${differing.slice(0, 5).join(', ')})`}`);
  if (!same) process.exitCode = 1;
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
