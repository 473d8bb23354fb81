import assert from 'node:assert/strict';
import os from 'node:os';
import { sameJson } from '../../common/conformance.js';
import { GATEWAY_PORT } from '../jobs/trial/prepare.js';
import type { EnvironmentSpec, TrialWork, TrialWorkResult, WorkHandover } from './types.js';

/** What the environment conformance suite (conformance.ts) runs in its sandboxes, and what it expects back. */

/** A trial's work with small defaults, for environment tests. */
export const work = (over: Partial<TrialWork>): TrialWork => ({
  files: [],
  command: ['true'],
  workdir: '/app',
  timeoutMs: 30_000,
  collectFiles: [],
  collectDirs: [],
  limits: { fileBytes: 4096, logBytes: 1024 * 1024 },
  ...over,
});

/** A sandbox spec for one registered trial, with small limits and no network: only the gateway's socket. */
export function sandboxSpec(o: { image: string; labels: Record<string, string>; token: string; socketDir: string; socketName?: string; handover: WorkHandover }): EnvironmentSpec {
  return {
    image: o.image,
    labels: o.labels,
    env: { AAR_TRIAL_TOKEN: o.token, AAR_GATEWAY_URL: `http://127.0.0.1:${GATEWAY_PORT}` },
    resources: { memoryMb: 256, cpus: 1, pids: 128 },
    gatewaySocketDir: o.socketDir,
    gatewaySocketName: o.socketName ?? 'gateway.sock',
    gatewayPort: GATEWAY_PORT,
    network: 'none',
    handover: o.handover,
  };
}

/** IPv4 addresses of this machine other than loopback: where a sandbox must not reach the host's other ports. */
export const hostAddresses = (): string[] =>
  Object.values(os.networkInterfaces())
    .flat()
    .filter((a) => a && a.family === 'IPv4' && !a.internal)
    .map((a) => a!.address);

/** A work that puts files in (one executable), runs in /app with an environment, and takes files and folders out; `more` runs before its exit 3. */
export function filesInOutWork(more = ''): TrialWork {
  const script = `#!/bin/sh\necho "out $GREETING $(pwd)"; echo err >&2; cat /app/in/data.txt > /app/answer.txt; mkdir -p /app/logs/deep; echo one > /app/logs/a.txt; echo two > /app/logs/deep/b.txt; ${more}exit 3\n`;
  return work({
    files: [
      { path: '/app/run.sh', content: script, mode: 0o755 },
      { path: '/app/in/data.txt', content: Buffer.from('passcode 7') },
    ],
    command: ['/app/run.sh'],
    env: { GREETING: 'hello' },
    collectFiles: ['/app/answer.txt', '/app/absent.txt'],
    collectDirs: ['/app/logs', '/app/no-such-dir'],
  });
}

/** What filesInOutWork gives back, stdout aside (throws when it differs). */
export function checkFilesInOut(result: TrialWorkResult): void {
  assert.equal(result.exitCode, 3);
  assert.equal(result.timedOut, false);
  assert.equal(result.stderr.toString(), 'err\n');
  assert.equal(result.files['/app/answer.txt']?.toString(), 'passcode 7');
  assert.equal(result.files['/app/absent.txt'], null);
  sameJson(Object.fromEntries(Object.entries(result.dirs['/app/logs'] ?? {}).map(([k, v]) => [k, v.toString()])), { 'a.txt': 'one\n', 'deep/b.txt': 'two\n' });
  sameJson(Object.keys(result.dirs['/app/no-such-dir'] ?? {}), []);
}

export const REACH_PROBE = (targets: string[], port: number) => `
  const net = require('net'); const fs = require('fs');
  const routes = fs.readFileSync('/proc/net/route', 'utf8').trim().split('\\n').slice(1).map((l) => l.split('\\t'));
  const defaultRoute = routes.some((r) => r[1] === '00000000');
  const targets = ${JSON.stringify(targets)};
  const tryConnect = (host) => new Promise((resolve) => {
    const s = net.connect({ host, port: ${port}, timeout: 3000 });
    s.on('connect', () => { s.destroy(); resolve('open'); });
    s.on('timeout', () => { s.destroy(); resolve('timeout'); });
    s.on('error', (e) => resolve(e.code));
  });
  (async () => {
    const out = { defaultRoute, host: {} };
    for (const t of targets) out.host[t] = await tryConnect(t);
    console.log(JSON.stringify(out));
  })();`;

