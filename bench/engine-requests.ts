/**
 * bench:engine-requests: what each thing a trial asks of the engine beyond a bare run costs the engine's own
 * processes. One container at a time runs `true` on the trial image through the engine's API, in rounds of
 * variants (interleaved, so drifting load hits them alike): the bare lifecycle `docker run --rm` makes
 * (create, attach, wait, start, remove), then with the trial's container config (limits, init, dropped
 * capabilities, no-new-privileges, the socket folder bound read-only, labels, no log driver), then also
 * with the watch on the engine's events a trial keeps open. Prints dockerd, containerd and the container's
 * own shim (with runc, and the container's own CPU: `true` is ~1 ms) per container, and wall time.
 *
 *   npm run bench:engine-requests [-- --n 20]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { docker } from '../common/docker.js';
import { watchContainerEvents } from '../harness/environments/docker/fate.js';
import { ensureAgentImage } from '../images/build.js';
import { engineCpuMeter } from './engine-cpu.js';

const argv = process.argv.slice(2);
const n = Number(argv[argv.indexOf('--n') + 1] || 20);
const socketDir = mkdtempSync(path.join(os.tmpdir(), 'aar-bench-engine-requests-'));

const TRIAL_HOST_CONFIG = {
  LogConfig: { Type: 'none', Config: {} },
  Init: true,
  Memory: 1024 * 1024 * 1024,
  MemorySwap: 1024 * 1024 * 1024,
  NanoCpus: 1e9,
  PidsLimit: 512,
  Binds: [`${socketDir}:/run/aar:ro`],
  Privileged: false,
  SecurityOpt: ['no-new-privileges'],
  CapDrop: ['ALL'],
  CapAdd: ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID'],
};

type Variant = { name: string; trialConfig: boolean; watch: boolean };
const variants: Variant[] = [
  { name: 'bare lifecycle (create, attach, wait, start, remove)', trialConfig: false, watch: false },
  { name: "+ the trial's container config", trialConfig: true, watch: false },
  { name: '+ the events watch', trialConfig: true, watch: true },
];

async function once(image: string, v: Variant): Promise<{ dockerd: number; containerd: number; shim: number; ms: number }> {
  const meter = engineCpuMeter(50);
  const started = performance.now();
  const container = await docker().createContainer({
    Image: image,
    Cmd: ['true'],
    AttachStdout: true,
    AttachStderr: true,
    Labels: v.trialConfig ? { 'aar.bench': 'engine-requests', 'aar.job': 'bench', 'aar.trial': 'bench-trial' } : {},
    HostConfig: { NetworkMode: 'none', ...(v.trialConfig ? TRIAL_HOST_CONFIG : {}) },
  });
  const stream = await container.attach({ stream: true, stdout: true, stderr: true, hijack: true });
  const ended = new Promise<void>((resolve) => {
    stream.on('end', resolve);
    stream.on('close', resolve);
    stream.resume();
  });
  const exited = container.wait({ condition: 'next-exit' });
  const watch = v.watch ? watchContainerEvents(container.id, ['pause']) : undefined;
  await container.start();
  await exited;
  await ended;
  watch?.stop();
  await container.remove({ force: true, v: true });
  const ms = performance.now() - started;
  const e = meter.stop();
  return { dockerd: e.dockerd, containerd: e.containerd, shim: e.shimOf([container.id]), ms };
}

try {
  const image = await ensureAgentImage(null);
  const sums = variants.map(() => ({ dockerd: 0, containerd: 0, shim: 0, ms: 0 }));
  await once(image, variants[0]);
  for (let round = 0; round < n; round++) {
    for (let i = 0; i < variants.length; i++) {
      const r = await once(image, variants[i]);
      for (const k of ['dockerd', 'containerd', 'shim', 'ms'] as const) sums[i][k] += r[k];
    }
  }
  console.log(`image ${image}; ${n} containers per variant, one at a time, interleaved; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
  console.log('| variant | dockerd | containerd | own shim + runc | engine total | wall ms |');
  console.log('|---|---|---|---|---|---|');
  variants.forEach((v, i) => {
    const s = sums[i];
    const per = (x: number): string => (x / n).toFixed(3);
    console.log(`| ${v.name} | ${per(s.dockerd)} | ${per(s.containerd)} | ${per(s.shim)} | ${per(s.dockerd + s.containerd + s.shim)} | ${(s.ms / n).toFixed(0)} |`);
  });
  console.log('(dockerd and containerd are shared with whatever else ran on the engine meanwhile: compare the variants, not the absolute figures)');
} finally {
  rmSync(socketDir, { recursive: true, force: true });
}
