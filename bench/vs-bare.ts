/**
 * bench:vs-bare: the oracle sweep through `aar run` against the floor of one container per trial, bare
 * `docker run --rm --network none IMAGE true` on the same image at the same concurrency, in ONE run: half the
 * bare runs, then the sweep, then the other half (so drifting load on a shared machine hits both alike).
 * Between them, as many bare `docker run ... IMAGE node -e 0` (halves around the sweep likewise): the floor
 * of a trial whose agent is a Node program, as the oracle is. Prints per trial CPU (engine split dockerd / containerd / shim+runc, in-container, harness or docker CLI),
 * the rate, and the ratios against issue 27's goals: rate >= 0.85 of bare, engine CPU <= 1.3x bare,
 * in-container CPU per oracle trial <= 0.2 s, FA 100%.
 *
 *   npm run bench:vs-bare [-- --legs 300] [-- --bare N (default: legs)] [-- --concurrency 4] [-- --data DIR]
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { ensureAgentImage } from '../images/build.js';
import { aarDataDir } from '../paths.js';
import { engineCpuMeter, type EngineCpu } from './engine-cpu.js';
import { engineTotal, missedLegs, runOracleSweep, synthesizeSweepWorld } from './oracle-sweep.js';

const argv = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const dataDir = flag('--data') ?? aarDataDir();
const legs = Number(flag('--legs') ?? 300);
const bareRuns = Number(flag('--bare') ?? legs);
const concurrency = Number(flag('--concurrency') ?? 4);
const tmp = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-vs-bare-'));
/** The floor of a trial whose agent is a Node program: a container that starts Node and does nothing. */
const NODE_FLOOR = ['node', '-e', '0'];

const f3 = (x: number): string => x.toFixed(3);
const load = (): string => os.loadavg().map((x) => x.toFixed(2)).join(' ');

/** CPU seconds of this process's reaped children (the docker CLIs it ran). */
function childrenCpu(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

interface Phase {
  n: number;
  seconds: number;
  engine: EngineCpu;
  container: number | null;
  client: number;
}

/** `n` bare containers running `command`, `concurrency` at a time. */
async function bare(image: string, n: number, command: string[] = ['true']): Promise<Phase> {
  const meter = engineCpuMeter();
  const cpu = childrenCpu();
  const started = performance.now();
  let next = 0;
  const ids: string[] = [];
  const worker = async (): Promise<void> => {
    while (next < n) {
      const cidfile = path.join(tmp, `bare-${next++}.cid`);
      await execa('docker', ['run', '--rm', '--network', 'none', '--cidfile', cidfile, image, ...command]);
      ids.push(readFileSync(cidfile, 'utf8').trim());
      rmSync(cidfile);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  const engine = meter.stop();
  // The shims of these containers only: other containers on a shared engine are not their cost.
  return { n, seconds, engine: { dockerd: engine.dockerd, containerd: engine.containerd, shim: engine.shimOf(ids) }, container: null, client: childrenCpu() - cpu };
}

function add(a: Phase, b: Phase): Phase {
  return {
    n: a.n + b.n,
    seconds: a.seconds + b.seconds,
    engine: { dockerd: a.engine.dockerd + b.engine.dockerd, containerd: a.engine.containerd + b.engine.containerd, shim: a.engine.shim + b.engine.shim },
    container: null,
    client: a.client + b.client,
  };
}

function row(name: string, p: Phase, unit: string): string {
  const per = (x: number): string => f3(x / p.n);
  const engine = engineTotal(p.engine);
  const total = engine + (p.container ?? 0) + p.client;
  return (
    `| ${name} | ${p.n} | ${per(total)} | ${per(engine)} (dockerd ${per(p.engine.dockerd)}, containerd ${per(p.engine.containerd)}, shim+runc ${per(p.engine.shim)}) | ` +
    `${p.container === null ? 'n/a' : per(p.container)} | ${per(p.client)} | ${(p.n / p.seconds).toFixed(2)} ${unit}/s |`
  );
}

const verdict = (ok: boolean): string => (ok ? 'met' : 'NOT met');

try {
  const image = await ensureAgentImage(null);
  const { worldDir, line } = await synthesizeSweepWorld(tmp, dataDir);
  console.log(line);
  // warm: the image's layers in the page cache, the engine's first container behind it
  await bare(image, concurrency);
  const loads: string[] = [`start ${load()}`];
  const first = await bare(image, Math.floor(bareRuns / 2));
  loads.push(`after bare (1st half) ${load()}`);
  const nodeFirst = await bare(image, Math.floor(bareRuns / 2), NODE_FLOOR);
  loads.push(`after bare node (1st half) ${load()}`);
  const sweep = await runOracleSweep({ tmp, dataDir, legs, concurrency, worldDir, name: 'vs-bare' });
  loads.push(`after sweep ${load()}`);
  const nodeSecond = await bare(image, bareRuns - nodeFirst.n, NODE_FLOOR);
  loads.push(`after bare node (2nd half) ${load()}`);
  const second = await bare(image, bareRuns - first.n);
  loads.push(`after bare (2nd half) ${load()}`);
  const bareAll = add(first, second);
  const nodeAll = add(nodeFirst, nodeSecond);
  const n = sweep.results.length;
  const trials: Phase = { n, seconds: sweep.seconds, engine: sweep.cost.engine, container: sweep.cost.containersMeasured ? sweep.cost.container : null, client: sweep.cost.harness };
  console.log(
    `(engine: dockerd and containerd are shared with whatever else ran on the engine meanwhile; shim+runc counts these containers' own shims ` +
      `with the runc calls they reaped, less the containers' own CPU (a shim reaps the container's first process: its CPU is in the shim's children's); ` +
      `a bare \`true\` uses ~1 ms in its container, left in)`,
  );
  const fa = sweep.figures?.fa.mean ?? 0;
  const infra = sweep.results.filter((r) => r.record.status === 'infra_error').length;

  console.log(`\nconcurrency ${concurrency}; image ${image}; load average (1, 5, 15 min): ${loads.join('; ')}`);
  console.log('| | n | CPU s per trial | engine | in-container | harness (`aar run`) or docker CLI | rate |');
  console.log('|---|---|---|---|---|---|---|');
  console.log(row(`oracle sweep through \`aar run\` (FA ${(100 * fa).toFixed(1)}%, infra errors ${infra})`, trials, 'trials'));
  console.log(row('bare `docker run --rm --network none IMAGE true`', bareAll, 'runs'));
  console.log(row('bare `docker run --rm --network none IMAGE node -e 0`', nodeAll, 'runs'));
  if (!n) throw new Error('no trial ran');
  const rateRatio = n / sweep.seconds / (bareAll.n / bareAll.seconds);
  const engineRatio = engineTotal(trials.engine) / n / (engineTotal(bareAll.engine) / bareAll.n);
  const inContainer = trials.container === null ? NaN : trials.container / sweep.cost.containersMeasured;
  console.log(`\nrate: ${rateRatio.toFixed(2)} of bare (goal >= 0.85 -> ${verdict(sweep.complete && rateRatio >= 0.85)})`);
  const nodeRatio = n / sweep.seconds / (nodeAll.n / nodeAll.seconds);
  console.log(`rate: ${nodeRatio.toFixed(2)} of a bare container that starts Node and nothing else (the floor of a trial whose agent is a Node program, as the oracle is)`);
  console.log(`engine CPU per trial: ${engineRatio.toFixed(2)}x bare (goal <= 1.3x -> ${verdict(engineRatio <= 1.3)})`);
  // A bare container's own CPU (runc's init in it, then `true`: ~0.03 s) stays in its shim's figure; a trial's is taken out into in-container.
  const withContainer = (engineTotal(trials.engine) + (trials.container ?? 0)) / n / (engineTotal(bareAll.engine) / bareAll.n);
  console.log(`engine and in-container CPU per trial together: ${withContainer.toFixed(2)}x a bare run's (whose shim figure holds its container's own CPU)`);
  console.log(`in-container CPU per oracle trial: ${f3(inContainer)} s over ${sweep.cost.containersMeasured} containers (goal <= 0.2 s -> ${verdict(inContainer <= 0.2)})`);
  console.log(`FA ${(100 * fa).toFixed(1)}% on ${n} of ${sweep.planned} legs${sweep.complete ? '' : ' (INCOMPLETE)'} (goal 100% -> ${verdict(sweep.complete && fa === 1)}); ` +
    `the oracle's own account missed a golden value on ${missedLegs(sweep.results).length} legs; engine API calls per trial ${(sweep.cost.apiCalls / n).toFixed(1)}; peak memory of \`aar run\` ${sweep.rssMb.toFixed(0)} MB`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
