/**
 * bench:trials: (1) the harness's overhead per trial (everything but the agent's own run), one oracle trial at
 * a time on a warm image, each followed by a bare `docker run --rm IMAGE true` on the same image, and their
 * ratio (goal <= 1.2x); (2) the oracle over the released legs on their synthetic golden-world store through
 * `aar run` at concurrency 4 (goal >= 2 trials/s, FA 100%, peak resident memory of `aar run` <= 300 MB).
 * Both print CPU seconds per trial by component (harness, engine, in-container) and engine API calls per trial.
 *
 *   npm run bench:trials [-- --overhead-only] [-- --sweep-only] [-- --trials 15] [-- --legs N] [-- --data DIR] [-- --concurrency N]
 *                        [-- --max-minutes M]   (stops the sweep after M minutes: what ran is reported as incomplete)
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { ensureAgentImage } from '../images/build.js';
import { runJob } from '../harness/jobs/job.js';
import { QuietReporter } from '../harness/jobs/reporters.js';
import { countEngineCalls, dockerUsage } from '../harness/environments/docker/usage.js';
import { aarDataDir, packagePath } from '../paths.js';
import { loadJobResults } from '../verifier/results.js';
import { engineCpuMeter } from './engine-cpu.js';
import { missedLegs, runOracleSweep, writeOracleConfig, type Cost } from './oracle-sweep.js';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const dataDir = flag('--data') ?? aarDataDir();
const concurrency = Number(flag('--concurrency') ?? 4);
const overheadTrials = Number(flag('--trials') ?? 15);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-trials-'));

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f3 = (x: number): string => x.toFixed(3);

const writeConfig = (name: string, config: Record<string, unknown>): string => writeOracleConfig(tmp, name, config);

function costLine(cost: Cost, trials: number): string {
  const per = (x: number): string => f3(x / trials);
  const engine = cost.engine.dockerd + cost.engine.containerd + cost.engine.shim;
  return (
    `CPU s per trial: harness ${per(cost.harness)}, engine ${per(engine)} (dockerd ${per(cost.engine.dockerd)}, containerd ${per(cost.engine.containerd)}, ` +
    `shim+runc ${per(cost.engine.shim)}), in-container ${cost.containersMeasured ? per(cost.container) : 'n/a'}` +
    `${cost.containersMeasured && cost.containersMeasured !== trials ? ` (${cost.containersMeasured} containers measured)` : ''}; ` +
    `total ${per(cost.harness + engine + cost.container)}; engine API calls per trial ${(cost.apiCalls / trials).toFixed(1)}`
  );
}

let stopped = false;
process.on('SIGINT', () => (stopped = true));

try {
  const examples = packagePath('tasks', 'examples');
  const store = packagePath('tools', 'stores', 'examples');
  if (!argv.includes('--sweep-only')) {
    // (1) a first trial warms the image and caches; then trial, bare container, trial, bare container, ...
    const image = await ensureAgentImage(null);
    await runJob({ configPath: writeConfig('warmup', { tasks: { path: examples, limit: 1 }, concurrency: 1, tools: { mode: 'replay', store } }), reporter: new QuietReporter() });
    countEngineCalls();
    const overheads: number[] = [];
    const agents: number[] = [];
    const bare: number[] = [];
    let bareEngineCpu = 0;
    const cost: Cost = { harness: 0, engine: { dockerd: 0, containerd: 0, shim: 0 }, container: 0, containersMeasured: 0, apiCalls: 0 };
    for (let i = 0; i < overheadTrials && !stopped; i++) {
      const calls = dockerUsage.apiCalls;
      const containerNs = dockerUsage.containerCpuNs;
      const measured = dockerUsage.containersMeasured;
      const cpu = process.cpuUsage();
      const meter = engineCpuMeter();
      const job = await runJob({
        configPath: writeConfig(`overhead-${i}`, { tasks: { path: examples, sample: { n: 1, seed: i } }, concurrency: 1, tools: { mode: 'replay', store } }),
        reporter: new QuietReporter(),
      });
      const engine = meter.stop();
      const used = process.cpuUsage(cpu);
      if (job.interrupted) break;
      const [r] = loadJobResults(job.jobDir).map((x) => x.record);
      if (!r || r.status !== 'completed') throw new Error(`overhead trial ${i}: ${r ? `${r.status}: ${r.error}` : 'no result'}`);
      overheads.push(r.timings.overhead_s ?? 0);
      agents.push(r.timings.agent_s ?? 0);
      cost.harness += (used.user + used.system) / 1e6;
      const trialContainerCpu = (dockerUsage.containerCpuNs - containerNs) / 1e9;
      cost.engine.dockerd += engine.dockerd;
      cost.engine.containerd += engine.containerd;
      // This trial's shims only, less its container's own CPU (which the shim's reaped children hold: engine-cpu.ts).
      cost.engine.shim += engine.shimOf(dockerUsage.containerIds.slice(measured)) - trialContainerCpu;
      cost.container += trialContainerCpu;
      cost.containersMeasured += dockerUsage.containersMeasured - measured;
      cost.apiCalls += dockerUsage.apiCalls - calls;
      const bareMeter = engineCpuMeter();
      const t = performance.now();
      const cidfile = path.join(tmp, `bare-${i}.cid`);
      await execa('docker', ['run', '--rm', '--network', 'none', '--cidfile', cidfile, image, 'true']);
      bare.push((performance.now() - t) / 1000);
      const bareEngine = bareMeter.stop();
      bareEngineCpu += bareEngine.dockerd + bareEngine.containerd + bareEngine.shimOf([readFileSync(cidfile, 'utf8').trim()]);
    }
    const n = overheads.length;
    const ratio = n ? median(overheads) / median(bare) : NaN;
    console.log(
      `overhead per trial (oracle, warm image, one at a time, ${n} of ${overheadTrials} trials ran): median ${n ? f3(median(overheads)) : 'n/a'} s ` +
        `(min ${f3(Math.min(...overheads))}, max ${f3(Math.max(...overheads))}); agent's own run: median ${n ? f3(median(agents)) : 'n/a'} s`,
    );
    console.log(
      `bare \`docker run --rm ${image} true\`, interleaved: median ${n ? f3(median(bare)) : 'n/a'} s (min ${f3(Math.min(...bare))}, max ${f3(Math.max(...bare))}); ` +
        `ratio ${ratio.toFixed(2)}x; goal <= 1.2x -> ${n === overheadTrials && ratio <= 1.2 ? 'met' : 'NOT met'}${n < overheadTrials ? ' (incomplete run)' : ''}`,
    );
    if (n) {
      console.log(`  (each trial is a job of its own: the harness figure includes a job's set-up) ${costLine(cost, n)}`);
      console.log(`  a bare docker run cost the engine ${f3(bareEngineCpu / n)} CPU s (dockerd, containerd, shim and runc; the docker CLI not counted)`);
    }
  }

  if (!argv.includes('--overhead-only') && !stopped) {
    // (2) the released legs on their synthetic golden world, through `aar run` (its own process: its CPU and peak memory)
    const legCount = flag('--legs') ? Number(flag('--legs')) : null;
    const maxMinutes = flag('--max-minutes');
    const sweep = await runOracleSweep({ tmp, dataDir, legs: legCount, concurrency, maxMinutes: maxMinutes ? Number(maxMinutes) : undefined, stopped: () => stopped });
    const { results, planned, complete, seconds, rate, figures: all, rssMb } = sweep;
    const ran = results.length;
    console.log(sweep.worldLine);
    console.log(
      `oracle on ${ran} of ${planned} legs${complete ? '' : ' (INCOMPLETE)'}, concurrency ${concurrency}: ${(seconds / 60).toFixed(1)} min, ${rate.toFixed(2)} trials/s ` +
        `(${ran ? (seconds / ran).toFixed(2) : 'n/a'} s/trial); FA ${(100 * (all?.fa.mean ?? 0)).toFixed(1)}%, PVR ${(100 * (all?.pvr.mean ?? 0)).toFixed(1)}%, ` +
        `RCR ${(100 * (all?.rcr.mean ?? 0)).toFixed(1)}%, infra errors ${results.filter((r) => r.record.status === 'infra_error').length}; ` +
        `goal >= 2 trials/s and FA 100% -> ${complete && rate >= 2 && all?.fa.mean === 1 ? 'met' : 'NOT met'}`,
    );
    // The oracle's own account, stop by stop: whether the answer it was served held the leg's golden value.
    const missed = missedLegs(results);
    console.log(`the oracle found every golden value in what it was served (page and tool stops) on ${ran - missed.length} of ${ran} legs${missed.length ? `; not on ${missed.length}, e.g. ${missed.slice(0, 5).join(', ')} (each trial's agent/ log says which stop)` : ''}`);
    console.log(`peak resident memory of \`aar run\`: ${rssMb.toFixed(0)} MB; goal <= 300 MB -> ${complete && rssMb <= 300 ? 'met' : 'NOT met'}`);
    if (ran) console.log(`  ${costLine(sweep.cost, ran)}`);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
