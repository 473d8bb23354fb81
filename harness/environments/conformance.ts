/**
 * The environment conformance suite: the checks every environment (docker, swarm, a plugin's) must pass, as
 * Inspect's sandbox self-check does. Each check starts a real sandbox from the trial image and drives it only
 * through EnvironmentProvider / TrialEnvironment, with a real gateway on a Unix socket. Library code: Jest runs
 * it for every registered environment (test/harness/environments/), `aar plugins check` for a plugin's.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sameJson, type ConformanceCheck, type ConformanceSuite } from '../../common/conformance.js';
import { dockerAvailable } from '../../common/docker.js';
import { ensureBaseImage } from '../../images/build.js';
import type { ProviderContext } from '../../tools/providers/types.js';
import { ToolService } from '../../tools/service.js';
import { GatewayServer } from '../gateway/server.js';
import { checkFilesInOut, filesInOutWork, hostAddresses, REACH_PROBE, sandboxSpec, work } from './conformance-work.js';
import type { EnvironmentDefinition } from './define.js';
import type { EnvironmentProvider, EnvironmentSpec, TrialWork, TrialWorkResult, WorkHandover } from './types.js';

export { checkFilesInOut, filesInOutWork, sandboxSpec, work };

export interface ConformanceOptions {
  /** The image trials run in (the base image of this build). */
  image: () => string;
  /** A label value unique to this suite's sandboxes, so its cleanup touches nothing else. */
  suiteLabel: string;
}

/** The suite for one environment: `provider` makes its provider (once, before the checks). */
export function environmentSuite(name: string, provider: () => EnvironmentProvider | Promise<EnvironmentProvider>, options: ConformanceOptions): ConformanceSuite {
  const bench = new SandboxBench(provider, options);
  const checks = environmentChecks(bench);
  for (const check of checks) check.timeoutMs = 180_000;
  return {
    seam: 'environment',
    entry: name,
    checks,
    before: () => bench.open(),
    /** Removes what is left and closes the provider; safe twice. */
    after: () => bench.close(),
  };
}

/** What the checks drive an environment with: its provider, a real gateway on a Unix socket, the suite's labels. Opened before the checks, closed after. */
class SandboxBench {
  gateway!: GatewayServer;
  socketDir!: string;
  env!: EnvironmentProvider;
  readonly suiteLabel: string;
  readonly labels: Record<string, string>;
  private closed = false;

  constructor(
    private readonly provider: () => EnvironmentProvider | Promise<EnvironmentProvider>,
    private readonly options: ConformanceOptions,
  ) {
    this.suiteLabel = options.suiteLabel;
    this.labels = { 'aar-harness': '1', 'aar.job_key': options.suiteLabel, 'aar.job': options.suiteLabel, 'aar.trial': 'conformance' };
  }

  async open(): Promise<void> {
    this.env = await this.provider();
    await this.env.check();
    this.gateway = new GatewayServer({ tools: new ToolService({ mode: 'live', providers: {} as ProviderContext }) });
    this.socketDir = mkdtempSync(path.join(os.tmpdir(), 'aar-conf-'));
    await this.gateway.listenSocket(path.join(this.socketDir, 'gateway.sock'));
  }

  /** Removes what is left and closes the provider; safe twice. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.env?.removeByLabels({ 'aar.job_key': this.suiteLabel });
    await this.env?.close?.();
    await this.gateway?.close();
    if (this.socketDir) rmSync(this.socketDir, { recursive: true, force: true });
  }

  specFor(trial: { token: string; handover: WorkHandover }, sandboxLabels: Record<string, string>): EnvironmentSpec {
    return sandboxSpec({ image: this.options.image(), labels: sandboxLabels, token: trial.token, socketDir: this.socketDir, handover: trial.handover });
  }

  /** Starts a sandbox for one registered trial and runs work in it; the sandbox is removed afterwards (twice: safe). */
  async runOnce(w: TrialWork, extra: Partial<EnvironmentSpec> = {}): Promise<TrialWorkResult> {
    const trial = this.gateway.trials.register({ trialId: 'conformance', toolLogPath: path.join(this.socketDir, 'tool_log.jsonl') });
    const sandbox = await this.env.start({ ...this.specFor(trial, this.labels), ...extra });
    try {
      return await sandbox.run(w);
    } finally {
      await sandbox.remove();
      await sandbox.remove();
      this.gateway.trials.unregister(trial.token);
    }
  }

  /** Starts a sandbox running `sleep 100` under a label of its own; resolves once its work was fetched. */
  async startSleeper(trialName: string) {
    const trial = this.gateway.trials.register({ trialId: trialName, toolLogPath: path.join(this.socketDir, `${trialName}.jsonl`) });
    const sandbox = await this.env.start(this.specFor(trial, { ...this.labels, 'aar.trial': trialName }));
    const running = sandbox.run(work({ command: ['sleep', '100'], timeoutMs: 120_000 }));
    running.catch(() => {});
    const deadline = Date.now() + 60_000;
    while (!trial.handover.fetched && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    assert.equal(trial.handover.fetched, true, 'the sandbox fetched its work within 60 s');
    const settled = running.then((r) => ({ exitCode: r.exitCode, timedOut: r.timedOut }), () => 'failed' as const);
    return { sandbox, settled, done: () => this.gateway.trials.unregister(trial.token) };
  }

  listed(trial: string) {
    return this.env.listByLabels({ 'aar.job_key': this.suiteLabel, 'aar.trial': trial });
  }
}

/** The checks, each on sandboxes of its own. */
function environmentChecks(bench: SandboxBench): ConformanceCheck[] {
  return [
    {
      name: 'files go in with their modes, the command runs in its folder with its environment, output and files come out',
      async run() {
        const result = await bench.runOnce(filesInOutWork());
        assert.equal(result.stdout.toString(), 'out hello /app\n');
        checkFilesInOut(result);
        assert.equal(typeof result.node, 'string');
      },
    },
    {
      name: 'the gateway answers from inside, with the trial token',
      async run() {
        const result = await bench.runOnce(work({ command: ['tools', '--ping'] }));
        assert.match(result.stdout.toString(), /gateway ok/);
        assert.equal(result.exitCode, 0);
      },
    },
    {
      name: 'past the timeout the command and its children are killed; the run says so',
      async run() {
        const result = await bench.runOnce(work({ command: ['sh', '-c', 'sleep 100 & echo started; sleep 100'], timeoutMs: 2_000 }));
        assert.equal(result.timedOut, true);
        assert.equal(result.exitCode, null);
        assert.ok(result.durationMs >= 2_000 && result.durationMs < 10_000, `ran ${result.durationMs} ms`);
      },
    },
    {
      name: 'nothing but the gateway is reachable: no route out, no port of this machine',
      async run() {
        const server = net.createServer((s) => s.end('reached\n'));
        await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
        const targets = hostAddresses();
        try {
          const result = await bench.runOnce(work({ command: ['node', '-e', REACH_PROBE(targets, (server.address() as net.AddressInfo).port)] }));
          const seen = JSON.parse(result.stdout.toString()) as { defaultRoute: boolean; host: Record<string, string> };
          assert.equal(seen.defaultRoute, false, 'a default route inside the sandbox');
          for (const t of targets) assert.notEqual(seen.host[t], 'open', `the host's ${t} answered from inside`);
        } finally {
          server.close();
        }
      },
    },
    {
      name: 'memory and process limits are set on the sandbox',
      async run() {
        const result = await bench.runOnce(
          work({ command: ['sh', '-c', 'cat /sys/fs/cgroup/memory.max 2>/dev/null || cat /sys/fs/cgroup/memory/memory.limit_in_bytes; cat /sys/fs/cgroup/pids.max 2>/dev/null || cat /sys/fs/cgroup/pids/pids.max'] }),
        );
        sameJson(result.stdout.toString().trim().split('\n'), [String(256 * 1024 * 1024), '128']);
      },
    },
    {
      name: 'a sandbox offers only id, run, kill and remove: nothing reaches into it',
      async run() {
        const trial = bench.gateway.trials.register({ trialId: 'conformance-narrow', toolLogPath: path.join(bench.socketDir, 'narrow.jsonl') });
        const sandbox = await bench.env.start(bench.specFor(trial, { ...bench.labels, 'aar.trial': 'narrow' }));
        try {
          const methods = new Set<string>();
          for (let proto = Object.getPrototypeOf(sandbox); proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
            for (const method of Object.getOwnPropertyNames(proto)) if (method !== 'constructor') methods.add(method);
          }
          sameJson([...methods].sort(), ['id', 'kill', 'remove', 'run']);
          assert.equal(typeof sandbox.id, 'string');
        } finally {
          await sandbox.remove();
          bench.gateway.trials.unregister(trial.token);
        }
      },
    },
    {
      name: 'listByLabels lists a running sandbox with its labels; removeByLabels removes it and reports it; its run ends',
      async run() {
        const { settled, done } = await bench.startSleeper('left-behind');
        try {
          const seen = await bench.listed('left-behind');
          assert.equal(seen.length, 1);
          assert.equal(seen[0]!.labels['aar.job_key'], bench.suiteLabel);
          assert.equal(seen[0]!.labels['aar.trial'], 'left-behind');
          assert.equal(await bench.env.removeByLabels({ 'aar.job_key': bench.suiteLabel, 'aar.trial': 'left-behind' }), 1);
          // A lost sandbox: the run fails, or ends with no exit status (the trial runner's infrastructure error).
          const outcome = await settled;
          assert.ok(outcome === 'failed' || (outcome.exitCode === null && !outcome.timedOut), `the run of a removed sandbox ended ${JSON.stringify(outcome)}`);
          sameJson(await bench.listed('left-behind'), []);
          assert.equal(await bench.env.removeByLabels({ 'aar.job_key': bench.suiteLabel, 'aar.trial': 'left-behind' }), 0);
        } finally {
          done();
        }
      },
    },
    {
      name: 'kill ends a run at once, long before its timeout, and never as a clean exit',
      async run() {
        const { sandbox, settled, done } = await bench.startSleeper('killed');
        try {
          const killed = Date.now();
          await sandbox.kill();
          const outcome = await settled;
          assert.ok(Date.now() - killed < 30_000, 'the run ended within 30 s of kill');
          assert.ok(JSON.stringify(outcome) !== JSON.stringify({ exitCode: 0, timedOut: false }), 'the killed run ended as a clean exit');
          await sandbox.remove();
          sameJson(await bench.listed('killed'), []);
        } finally {
          done();
        }
      },
    },
  ];
}

/**
 * The suite of a registered environment, on the trial base image (built when missing), with the settings and
 * the availability its definition gives; last, nothing of the suite may be left behind.
 */
export function registeredEnvironmentSuite(definition: EnvironmentDefinition, suiteLabel: string): ConformanceSuite {
  let image = '';
  const hooks = definition.conformance;
  const suite = environmentSuite(definition.name, async () => definition.create(await hooks?.settings?.(suiteLabel)), { image: () => image, suiteLabel });
  const before = suite.before!;
  const after = suite.after!;
  const leftovers = hooks?.leftovers;
  const closed = {
    name: 'once the provider is closed, the suite has left nothing behind',
    timeoutMs: 120_000,
    async run() {
      await after();
      sameJson(await leftovers!(suiteLabel), []);
    },
  };
  return {
    ...suite,
    unavailable: async () => (await dockerAvailable() ? hooks?.unavailable() : 'no Docker engine answers to build the trial image (run images/docker-up.sh)'),
    async before() {
      image = await ensureBaseImage();
      await before();
    },
    checks: leftovers ? [...suite.checks, closed] : suite.checks,
  };
}
