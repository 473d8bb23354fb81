/**
 * bench:engine-requests: what each thing a trial asks of the engine beyond a bare run costs the engine's own
 * processes. One container at a time runs `true` on the trial image through the engine's API, in rounds of
 * variants (interleaved, so drifting load hits them alike): the bare lifecycle `docker run --rm` makes
 * (create, attach, wait, start, remove), then with the trial's container config (limits, init, dropped
 * capabilities, no-new-privileges, the socket folder bound read-only, labels, no log driver), then also
 * with the watch on the engine's events a trial keeps open. Prints dockerd, containerd and the container's
 * own shim (with runc, and the container's own CPU: `true` is ~1 ms) per container, and wall time.
 *
 *   npm run bench:engine-requests [-- --n 20] [-- --bisect]
 *
 * --bisect: the trial's config less one setting at a time, and the bare lifecycle plus one setting at a time,
 * to find which setting costs wall time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { docker } from '../common/docker.js';
import { watchForPause } from '../harness/environments/docker/fate.js';
import { ensureAgentImage } from '../images/build.js';
import { engineCpuMeter } from './engine-cpu.js';

const argv = process.argv.slice(2);
const n = argv.includes('--n') ? Number(argv[argv.indexOf('--n') + 1]) : 20;
const socketDir = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-engine-requests-'));

/** The trial's container config (harness/environments/docker/container.ts), one named setting at a time. */
const TRIAL_SETTINGS: Record<string, { top?: Record<string, unknown>; host?: Record<string, unknown> }> = {
  'no log driver': { host: { LogConfig: { Type: 'none', Config: {} } } },
  init: { host: { Init: true } },
  'memory limit': { host: { Memory: 1024 * 1024 * 1024, MemorySwap: 1024 * 1024 * 1024 } },
  'cpu limit': { host: { NanoCpus: 1e9 } },
  'pids limit': { host: { PidsLimit: 512 } },
  'socket bind': { host: { Binds: [`${socketDir}:/run/aar:ro`] } },
  'no-new-privileges': { host: { SecurityOpt: ['no-new-privileges'] } },
  capabilities: { host: { Privileged: false, CapDrop: ['ALL'], CapAdd: ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID'] } },
  labels: { top: { Labels: { 'aar.bench': 'engine-requests', 'aar.job': 'bench', 'aar.trial': 'bench-trial' } } },
  'working dir': { top: { WorkingDir: '/app' } },
};
const ALL = Object.keys(TRIAL_SETTINGS);

let streamsLeftOpen = 0;

type Variant = { name: string; settings: string[]; watch: boolean };
// --bisect: the full config less one setting at a time, and the bare lifecycle plus one at a time.
const variants: Variant[] = argv.includes('--bisect')
  ? [
      { name: 'bare lifecycle (create, attach, wait, start, remove)', settings: [], watch: false },
      { name: "+ the trial's container config", settings: ALL, watch: false },
      ...ALL.map((drop) => ({ name: `trial config less ${drop}`, settings: ALL.filter((s) => s !== drop), watch: false })),
      ...ALL.map((add) => ({ name: `bare + ${add} only`, settings: [add], watch: false })),
    ]
  : [
      { name: 'bare lifecycle (create, attach, wait, start, remove)', settings: [], watch: false },
      { name: "+ the trial's container config", settings: ALL, watch: false },
      { name: '+ the events watch', settings: ALL, watch: true },
    ];

async function once(image: string, v: Variant): Promise<{ dockerd: number; containerd: number; shim: number; ms: number }> {
  const meter = engineCpuMeter(50);
  const started = performance.now();
  const container = await docker().createContainer({
    Image: image,
    Cmd: ['true'],
    AttachStdout: true,
    AttachStderr: true,
    ...Object.assign({}, ...v.settings.map((k) => TRIAL_SETTINGS[k].top ?? {})),
    HostConfig: { NetworkMode: 'none', ...Object.assign({}, ...v.settings.map((k) => TRIAL_SETTINGS[k].host ?? {})) },
  });
  const stream = await container.attach({ stream: true, stdout: true, stderr: true, hijack: true });
  const ended = new Promise<void>((resolve) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.resume();
  });
  const exited = container.wait({ condition: 'next-exit' });
  const watch = v.watch ? watchForPause(container.id) : undefined;
  await container.start();
  await exited;
  // The engine now and then leaves a hijacked attach open after the exit; the harness waits 2 s at most too.
  if (!(await Promise.race([ended.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2_000).unref())]))) {
    (stream as unknown as { destroy: () => void }).destroy();
    streamsLeftOpen++;
  }
  watch?.stop();
  await container.remove({ force: true, v: true });
  const ms = performance.now() - started;
  const e = meter.stop();
  return { dockerd: e.dockerd, containerd: e.containerd, shim: e.shimOf([container.id]), ms };
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return (sorted[Math.floor((sorted.length - 1) / 2)] + sorted[Math.ceil((sorted.length - 1) / 2)]) / 2;
};

try {
  const image = await ensureAgentImage(null);
  const sums = variants.map(() => ({ dockerd: 0, containerd: 0, shim: 0, ms: [] as number[] }));
  const loadBefore = os.loadavg();
  await once(image, variants[0]);
  for (let round = 0; round < n; round++) {
    // Each round starts at another variant, so none always follows the same one.
    for (let j = 0; j < variants.length; j++) {
      const i = (round + j) % variants.length;
      const r = await once(image, variants[i]);
      for (const k of ['dockerd', 'containerd', 'shim'] as const) sums[i][k] += r[k];
      sums[i].ms.push(r.ms);
    }
  }
  const load = (l: number[]): string => l.map((x) => x.toFixed(2)).join(' ');
  console.log(`image ${image}; ${n} containers per variant, one at a time, interleaved; load average before ${load(loadBefore)}, after ${load(os.loadavg())}`);
  console.log('| variant | dockerd | containerd | own shim + runc | engine total | wall ms mean | wall ms median |');
  console.log('|---|---|---|---|---|---|---|');
  variants.forEach((v, i) => {
    const s = sums[i];
    const per = (x: number): string => (x / n).toFixed(3);
    const mean = s.ms.reduce((a, b) => a + b, 0) / n;
    console.log(`| ${v.name} | ${per(s.dockerd)} | ${per(s.containerd)} | ${per(s.shim)} | ${per(s.dockerd + s.containerd + s.shim)} | ${mean.toFixed(0)} | ${median(s.ms).toFixed(0)} |`);
  });
  if (streamsLeftOpen) console.log(`${streamsLeftOpen} attach stream(s) stayed open after the exit (cut after 2 s, counted in wall)`);
  console.log('(dockerd and containerd are shared with whatever else ran on the engine meanwhile: compare the variants, not the absolute figures)');
} finally {
  rmSync(socketDir, { recursive: true, force: true });
}
