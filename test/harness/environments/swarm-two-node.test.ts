import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { BOOTSTRAPPED_DEBIAN, ensureBaseImage } from '../../../images/build.js';
import { loadJobResults } from '../../../verifier/results.js';
import { AAR_BIN } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/data.js';
import { writeJobConfig } from '../../helpers/jobs.js';
import { execa } from 'execa';
import { removeStaleClusters, TwoNodeCluster, twoNodeUnavailable } from './two-node-cluster.js';

/**
 * The swarm environment on two nodes of a cluster this test builds for itself (two-node-cluster.ts): trials
 * spread over both, the isolation check from a container on the worker, and (last, as it leaves the worker
 * cut off) a worker cut off mid-job with its trials rerun on the manager. The harness runs as `aar run` with DOCKER_HOST at the test's manager.
 */
const UNAVAILABLE = await twoNodeUnavailable();
if (UNAVAILABLE) console.warn(UNAVAILABLE);
const describeTwoNodes = UNAVAILABLE ? describe.skip : describe;

jest.setTimeout(900_000);

const PREFIX = `aar-test-2n${process.pid}-`;
const say = (line: string) => process.stderr.write(`two-node: ${line}\n`);

const scores = (jobDir: string) =>
  Object.fromEntries(
    loadJobResults(jobDir).map((r) => {
      const { wall_s: _w, ...rest } = r.score ?? {};
      return [path.basename(r.dir), { status: r.record.status, score: rest }];
    }),
  );
const nodesOf = (jobDir: string) => Object.fromEntries(loadJobResults(jobDir).map((r) => [path.basename(r.dir), r.record.environment?.node ?? null]));
const perNode = (jobDir: string) => Object.values(nodesOf(jobDir)).reduce<Record<string, number>>((acc, n) => ({ ...acc, [String(n)]: (acc[String(n)] ?? 0) + 1 }), {});

describeTwoNodes('jobs on a two-node swarm of the test’s own', () => {
  const tmp = tempDir('aar-swarm-2n-');
  const cluster = new TwoNodeCluster();
  const started = Date.now();
  let onCluster: Record<string, unknown>;
  /** A port open in both nodes' namespaces: a sandbox must not reach it. */
  const PORT = 47_111;

  /** `aar run` against the test's manager; resolves with its exit code and stderr (the per-trial lines). */
  const runOnCluster = (config: string) => {
    const child = execa(process.execPath, [AAR_BIN, 'run', config, '--progress', 'lines', '--no-report'], {
      env: { DOCKER_HOST: `unix://${cluster.manager.socket}` },
      all: true,
      reject: false,
    });
    return child;
  };
  const local = (config: string) => runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10 });

  beforeAll(async () => {
    const stale = await removeStaleClusters();
    if (stale.length) console.warn(`two-node: removed clusters left by killed runs: ${stale.join(', ')}`);
    const image = await ensureBaseImage();
    const t0 = Date.now();
    await cluster.start();
    // The host's base image (and the Debian image its tag is computed from) go to the manager here; the
    // provider loads them from the manager into the worker (swarm.node_engines), as a user's job would.
    await cluster.loadImages([image, BOOTSTRAPPED_DEBIAN]);
    await cluster.listen(cluster.manager, PORT);
    await cluster.listen(cluster.worker, PORT);
    say(`cluster up with ${image} on the manager in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${JSON.stringify(await cluster.nodeStates())}`);
    onCluster = { environment: 'swarm', swarm: { name_prefix: PREFIX, node_engines: { [cluster.worker.name]: `unix://${cluster.worker.socket}` } } };
  });

  afterAll(async () => {
    await cluster.stop();
    expect(await cluster.leftovers()).toEqual([]);
    tmp.cleanup();
    say(`test run time ${((Date.now() - started) / 1000).toFixed(1)} s wall, ${(process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6).toFixed(1)} CPU s in the test process`);
  });

  test('oracle and random spread over both nodes, with the scores of the local docker environment', async () => {
    const agents = [{ name: 'oracle' }, { name: 'random' }];
    const onDocker = await local(writeJobConfig(tmp.dir, { name: 'aar-test-2n-docker', agents }, 'docker.yaml'));
    const t0 = Date.now();
    const run = await runOnCluster(writeJobConfig(tmp.dir, { name: 'aar-test-2n-spread', agents, concurrency: 6, ...onCluster }, 'spread.yaml'));
    expect([run.exitCode, run.all]).toEqual([0, expect.anything()]);
    const jobDir = path.join(tmp.dir, 'jobs', 'aar-test-2n-spread');
    say(`spread job: 6 trials in ${((Date.now() - t0) / 1000).toFixed(1)} s; trials per node ${JSON.stringify(perNode(jobDir))}`);
    const byNode = perNode(jobDir);
    expect(Object.keys(byNode).sort()).toEqual([cluster.manager.name, cluster.worker.name].sort());
    expect(scores(jobDir)).toEqual(scores(onDocker.jobDir));
  });

  test('a trial container on the worker reaches the gateway and nothing else: no node port, no route out', async () => {
    const m = cluster.manager.address;
    const w = cluster.worker.address;
    const targets = [`${m}:2377`, `${m}:7946`, `${m}:${PORT}`, `${w}:7946`, `${w}:${PORT}`, '192.0.2.1:80'];
    const probe = `
      const net = require('net'); const fs = require('fs');
      const defaultRoute = fs.readFileSync('/proc/net/route', 'utf8').split('\\n').slice(1).some((l) => l.split('\\t')[1] === '00000000');
      const tryConnect = (hp) => new Promise((resolve) => {
        const [host, port] = hp.split(':');
        const s = net.connect({ host, port: Number(port), timeout: 3000 });
        s.on('connect', () => { s.destroy(); resolve('open'); });
        s.on('timeout', () => { s.destroy(); resolve('timeout'); });
        s.on('error', (e) => resolve(e.code));
      });
      (async () => {
        const out = { node: process.env.AAR_NODE, defaultRoute, reached: {} };
        for (const t of [process.env.AAR_GATEWAY_RELAY, ...${JSON.stringify(targets)}]) out.reached[t] = await tryConnect(t);
        console.log(JSON.stringify(out));
      })();`;
    const command = `echo ${Buffer.from(probe).toString('base64')} | base64 -d > /tmp/probe.js && node /tmp/probe.js`;
    const config = writeJobConfig(tmp.dir, {
      name: 'aar-test-2n-iso',
      agents: [{ name: 'command', id: 'probe', options: { command } }],
      attempts: 2,
      concurrency: 6,
      ...onCluster,
    }, 'iso.yaml');
    const run = await runOnCluster(config);
    expect([run.exitCode, run.all]).toEqual([0, expect.anything()]);
    const seen = loadJobResults(path.join(tmp.dir, 'jobs', 'aar-test-2n-iso')).map(
      (r) => JSON.parse(readFileSync(path.join(r.dir, 'agent', 'stdout.log'), 'utf8').trim().split('\n').pop()!) as { node: string; defaultRoute: boolean; reached: Record<string, string> },
    );
    const fromWorker = seen.filter((s) => s.node === cluster.worker.name);
    say(`isolation: ${fromWorker.length} of ${seen.length} probes ran on the worker; one saw ${JSON.stringify(fromWorker[0])}`);
    expect(fromWorker.length).toBeGreaterThan(0);
    for (const s of seen) {
      expect(s.defaultRoute).toBe(false);
      const open = Object.entries(s.reached).filter(([, v]) => v === 'open').map(([t]) => t);
      expect([s.node, open]).toEqual([s.node, [Object.keys(s.reached)[0]]]);
    }
  });

  /** The slow job on the local docker environment: the scores every drill must end with. */
  let slowOnDocker: Record<string, unknown> | undefined;
  const slow = { agents: [{ name: 'command', id: 'slow', options: { command: 'sleep 12; printf 4 > /app/answer.txt' } }], attempts: 2, concurrency: 6, infra_retries: 2 };

  /**
   * Runs the slow job on the cluster, does `lose` to the worker once trials run there, and checks that its
   * trials became infrastructure errors that ran again on the manager, with the local scores at the end.
   */
  async function drill(name: string, lose: () => Promise<void>, lostWhen: () => Promise<boolean>): Promise<void> {
    slowOnDocker ??= scores((await local(writeJobConfig(tmp.dir, { name: 'aar-test-2n-slow-docker', ...slow }, 'slow-docker.yaml'))).jobDir);
    const jobDir = path.join(tmp.dir, 'jobs', `aar-test-2n-${name}`);
    const t0 = Date.now();
    const run = runOnCluster(writeJobConfig(tmp.dir, { name: `aar-test-2n-${name}`, ...slow, ...onCluster }, `${name}.yaml`));
    let onWorker = 0;
    for (let i = 0; i < 600 && onWorker === 0; i++) {
      await new Promise((r) => setTimeout(r, 250));
      const tasks = await cluster.docker(cluster.manager, ['node', 'ps', cluster.worker.name, '--filter', 'desired-state=running', '--format', '{{.Name}} {{.CurrentState}}']).catch(() => ({ stdout: '' }));
      onWorker = tasks.stdout.split('\n').filter((l) => l.startsWith(PREFIX) && l.includes('Running')).length;
    }
    expect(onWorker).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 2000));
    const lostAt = Date.now();
    await lose();
    let seenAfter: number | null = null;
    for (let i = 0; i < 240 && seenAfter === null; i++) {
      if (await lostWhen()) seenAfter = Date.now() - lostAt;
      else await new Promise((r) => setTimeout(r, 250));
    }
    const result = await run;
    const retries = result.all.split('\n').filter((l) => l.includes('infrastructure error, retry'));
    const lost = retries.filter((l) => l.includes(cluster.worker.name));
    say(`${name}: ${onWorker} trials running on the worker at ${((lostAt - t0) / 1000).toFixed(1)} s into the job; swarm showed it after ${((seenAfter ?? NaN) / 1000).toFixed(1)} s; job ended ${((Date.now() - lostAt) / 1000).toFixed(1)} s after (exit ${result.exitCode}, ${retries.length} infrastructure retries); trials per node at the end ${JSON.stringify(perNode(jobDir))}`);
    for (const l of lost) say(`  ${l}`);
    expect([result.exitCode, result.all]).toEqual([0, expect.anything()]);
    expect(seenAfter).not.toBeNull();
    expect(lost.length).toBeGreaterThanOrEqual(onWorker);
    // Every trial finished and scored (on the manager, or on the worker before the loss): none is an infrastructure error.
    expect(scores(jobDir)).toEqual(slowOnDocker);
    for (const line of lost) {
      const trial = line.split(':')[0];
      expect([trial, nodesOf(jobDir)[trial]]).toEqual([trial, cluster.manager.name]);
    }
    const leftover = (await cluster.docker(cluster.manager, ['service', 'ls', '--format', '{{.Name}}'])).stdout.split('\n').filter((n) => n.startsWith(PREFIX));
    expect(leftover).toEqual([]);
  }

  test('a worker drained mid-job: swarm stops its trials; they become infrastructure errors and run again on the manager', async () => {
    const availability = async () => (await cluster.docker(cluster.manager, ['node', 'inspect', cluster.worker.name, '--format', '{{.Spec.Availability}}'])).stdout.trim();
    try {
      await drill('drain', async () => void (await cluster.docker(cluster.manager, ['node', 'update', '--availability', 'drain', cluster.worker.name])), async () => {
        const left = await cluster.docker(cluster.manager, ['node', 'ps', cluster.worker.name, '--filter', 'desired-state=running', '--format', '{{.Name}}']);
        return !left.stdout.split('\n').some((l) => l.startsWith(PREFIX));
      });
    } finally {
      await cluster.docker(cluster.manager, ['node', 'update', '--availability', 'active', cluster.worker.name]);
    }
    expect(await availability()).toBe('active');
  });

  test('a worker cut off mid-job (its machine leaves the network): its trials become infrastructure errors and run again on the manager', async () => {
    await drill('cutoff', () => cluster.cutOff(cluster.worker), async () => (await cluster.nodeStates())[cluster.worker.name] === 'Down');
  });
});

