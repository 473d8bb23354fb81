/**
 * The environment conformance suite: one set of checks every environment (docker, swarm, and later others)
 * must pass, as Inspect's sandbox self-check does. Each check starts a real sandbox from the trial image
 * and drives it only through EnvironmentProvider / TrialEnvironment, with a real gateway on a Unix socket.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { EnvironmentProvider, EnvironmentSpec, TrialWork, TrialWorkResult, WorkHandover } from '../../../harness/environments/types.js';
import { GatewayServer } from '../../../harness/gateway/server.js';
import { GATEWAY_PORT } from '../../../harness/jobs/trial/index.js';
import type { ProviderContext } from '../../../tools/providers/types.js';
import { ToolService } from '../../../tools/service.js';

export interface ConformanceOptions {
  /** The image trials run in (the base image of this build). */
  image: () => string;
  /** A label value unique to this suite's sandboxes, so its cleanup touches nothing else. */
  suiteLabel: string;
}

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
const hostAddresses = (): string[] =>
  Object.values(os.networkInterfaces())
    .flat()
    .filter((a) => a && a.family === 'IPv4' && !a.internal)
    .map((a) => a!.address);

export function environmentConformance(name: string, provider: () => EnvironmentProvider, options: ConformanceOptions): void {
  describe(`environment conformance: ${name}`, () => {
    let gateway: GatewayServer;
    let socketDir: string;
    let env: EnvironmentProvider;
    const labels = { 'aar-harness': '1', 'aar.job_key': options.suiteLabel, 'aar.job': options.suiteLabel, 'aar.trial': 'conformance' };

    beforeAll(async () => {
      env = provider();
      await env.check();
      gateway = new GatewayServer({ tools: new ToolService({ mode: 'live', providers: {} as ProviderContext }) });
      socketDir = mkdtempSync(path.join(os.tmpdir(), 'aar-conf-'));
      await gateway.listenSocket(path.join(socketDir, 'gateway.sock'));
    });
    afterAll(async () => {
      await env.removeByLabels({ 'aar.job_key': options.suiteLabel });
      await env.close?.();
      await gateway.close();
      rmSync(socketDir, { recursive: true, force: true });
    });

    const specFor = (trial: { token: string; handover: WorkHandover }, sandboxLabels: Record<string, string>): EnvironmentSpec =>
      sandboxSpec({ image: options.image(), labels: sandboxLabels, token: trial.token, socketDir, handover: trial.handover });

    /** Starts a sandbox for one registered trial and runs work in it; the sandbox is removed afterwards. */
    async function runOnce(w: TrialWork, extra: Partial<EnvironmentSpec> = {}) {
      const trial = gateway.trials.register({ trialId: 'conformance', toolLogPath: path.join(socketDir, 'tool_log.jsonl') });
      const sandbox = await env.start({ ...specFor(trial, labels), ...extra });
      try {
        return await sandbox.run(w);
      } finally {
        await sandbox.remove();
        await sandbox.remove(); // safe twice
        gateway.trials.unregister(trial.token);
      }
    }

    test('files go in with their modes, the command runs in its folder with its environment, output and files come out', async () => {
      const result = await runOnce(filesInOutWork());
      expect(result.stdout.toString()).toBe('out hello /app\n');
      expectFilesInOut(result);
      expect(typeof result.node).toBe('string');
    });

    test('the gateway answers from inside, with the trial token', async () => {
      const result = await runOnce(work({ command: ['tools', '--ping'] }));
      expect(result.stdout.toString()).toMatch(/gateway ok/);
      expect(result.exitCode).toBe(0);
    });

    test('past the timeout the command and its children are killed; the run says so', async () => {
      const started = Date.now();
      const result = await runOnce(work({ command: ['sh', '-c', 'sleep 100 & echo started; sleep 100'], timeoutMs: 2_000 }));
      expect(result.timedOut).toBe(true);
      expect(result.exitCode).toBeNull();
      expect(result.durationMs).toBeGreaterThanOrEqual(2_000);
      expect(result.durationMs).toBeLessThan(10_000);
      expect(Date.now() - started).toBeLessThan(60_000);
    });

    test('nothing but the gateway is reachable: no route out, no port of this machine', async () => {
      const server = net.createServer((s) => s.end('reached\n'));
      await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
      const port = (server.address() as net.AddressInfo).port;
      const targets = hostAddresses();
      const probe = `
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
      try {
        const result = await runOnce(work({ command: ['node', '-e', probe] }));
        const seen = JSON.parse(result.stdout.toString()) as { defaultRoute: boolean; host: Record<string, string> };
        expect(seen.defaultRoute).toBe(false);
        for (const t of targets) expect([t, seen.host[t]]).not.toEqual([t, 'open']);
      } finally {
        server.close();
      }
    });

    test('memory and process limits are set on the sandbox', async () => {
      const result = await runOnce(
        work({ command: ['sh', '-c', 'cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes; cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max'] }),
      );
      expect(result.stdout.toString().trim().split('\n')).toEqual([String(256 * 1024 * 1024), '128']);
    });

    /** Starts a sandbox running `sleep 100` under a label of its own; resolves once its work was fetched. */
    async function startSleeper(name: string) {
      const trial = gateway.trials.register({ trialId: name, toolLogPath: path.join(socketDir, `${name}.jsonl`) });
      const sandbox = await env.start(specFor(trial, { ...labels, 'aar.trial': name }));
      const running = sandbox.run(work({ command: ['sleep', '100'], timeoutMs: 120_000 }));
      running.catch(() => {});
      const deadline = Date.now() + 60_000;
      while (!trial.handover.fetched && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(trial.handover.fetched).toBe(true);
      const settled = running.then((r) => ({ exitCode: r.exitCode, timedOut: r.timedOut }), () => 'failed' as const);
      return { sandbox, settled, done: () => gateway.trials.unregister(trial.token) };
    }
    const listed = (trial: string) => env.listByLabels({ 'aar.job_key': options.suiteLabel, 'aar.trial': trial });

    test('a sandbox offers only id, run, kill and remove: nothing reaches into it', async () => {
      const trial = gateway.trials.register({ trialId: 'conformance-narrow', toolLogPath: path.join(socketDir, 'narrow.jsonl') });
      const sandbox = await env.start(specFor(trial, { ...labels, 'aar.trial': 'narrow' }));
      try {
        const methods = new Set<string>();
        for (let proto = Object.getPrototypeOf(sandbox); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
          for (const name of Object.getOwnPropertyNames(proto)) if (name !== 'constructor') methods.add(name);
        }
        expect([...methods].sort()).toEqual(['id', 'kill', 'remove', 'run']);
        expect(typeof sandbox.id).toBe('string');
      } finally {
        await sandbox.remove();
        gateway.trials.unregister(trial.token);
      }
    });

    test('listByLabels lists a running sandbox with its labels; removeByLabels removes it and reports it; its run ends', async () => {
      const { settled, done } = await startSleeper('left-behind');
      try {
        const seen = await listed('left-behind');
        expect(seen).toHaveLength(1);
        expect(seen[0].labels).toMatchObject({ 'aar.job_key': options.suiteLabel, 'aar.trial': 'left-behind' });
        expect(await env.removeByLabels({ 'aar.job_key': options.suiteLabel, 'aar.trial': 'left-behind' })).toBe(1);
        // A lost sandbox: the run fails, or ends with no exit status (the trial runner's infrastructure error).
        expect([{ exitCode: null, timedOut: false }, 'failed']).toContainEqual(await settled);
        expect(await listed('left-behind')).toEqual([]);
        expect(await env.removeByLabels({ 'aar.job_key': options.suiteLabel, 'aar.trial': 'left-behind' })).toBe(0);
      } finally {
        done();
      }
    });

    test('kill ends a run at once, long before its timeout, and never as a clean exit', async () => {
      const { sandbox, settled, done } = await startSleeper('killed');
      try {
        const killed = Date.now();
        await sandbox.kill();
        const outcome = await settled;
        expect(Date.now() - killed).toBeLessThan(30_000);
        expect(outcome).not.toEqual({ exitCode: 0, timedOut: false });
        await sandbox.remove();
        expect(await listed('killed')).toEqual([]);
      } finally {
        done();
      }
    });
  });
}

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

/** What filesInOutWork gives back, stdout aside. */
export function expectFilesInOut(result: TrialWorkResult): void {
  expect(result.exitCode).toBe(3);
  expect(result.timedOut).toBe(false);
  expect(result.stderr.toString()).toBe('err\n');
  expect(result.files['/app/answer.txt']?.toString()).toBe('passcode 7');
  expect(result.files['/app/absent.txt']).toBeNull();
  expect(Object.fromEntries(Object.entries(result.dirs['/app/logs']).map(([k, v]) => [k, v.toString()]))).toEqual({ 'a.txt': 'one\n', 'deep/b.txt': 'two\n' });
  expect(Object.keys(result.dirs['/app/no-such-dir'] ?? {})).toEqual([]);
}
