/**
 * A docker trial's lean path: socat is the relay (no Node process besides the agent's), the gateway check
 * runs in the command's own exec and fails the run when the gateway does not answer, and a trial costs the
 * engine a handful of requests.
 */
import { jest } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DockerEnvironmentProvider } from '../../../../harness/environments/docker/environment.js';
import { countEngineCalls, dockerUsage } from '../../../../harness/environments/docker/usage.js';
import type { EnvironmentSpec, TrialWork } from '../../../../harness/environments/types.js';
import { GatewayServer } from '../../../../harness/gateway/server.js';
import { GATEWAY_PORT } from '../../../../harness/jobs/trial.js';
import { ensureBaseImage } from '../../../../images/build.js';
import { dockerAvailable } from '../../../../images/docker.js';
import type { ProviderContext } from '../../../../tools/providers/types.js';
import { ToolService } from '../../../../tools/service.js';
import { work } from '../conformance.js';

const HAVE_DOCKER = await dockerAvailable();
const image = HAVE_DOCKER ? await ensureBaseImage() : '';
const suite = `aar-test-relay-${process.pid}`;
jest.setTimeout(120_000);


(HAVE_DOCKER ? describe : describe.skip)('docker trial path', () => {
  const provider = new DockerEnvironmentProvider();
  let gateway: GatewayServer;
  let socketDir: string;

  beforeAll(async () => {
    gateway = new GatewayServer({ tools: new ToolService({ mode: 'live', providers: {} as ProviderContext }) });
    socketDir = mkdtempSync(path.join(os.tmpdir(), 'aar-relay-'));
    await gateway.listenSocket(path.join(socketDir, 'gateway.sock'));
  });
  afterAll(async () => {
    await provider.removeByLabels({ 'aar.job_key': suite });
    await gateway.close();
    rmSync(socketDir, { recursive: true, force: true });
  });

  async function runOnce(w: TrialWork, socketName = 'gateway.sock') {
    const trial = gateway.trials.register({ trialId: 'relay', toolLogPath: path.join(socketDir, 'tool_log.jsonl') });
    const spec: EnvironmentSpec = {
      image,
      labels: { 'aar-harness': '1', 'aar.job_key': suite },
      env: { AAR_TRIAL_TOKEN: trial.token, AAR_GATEWAY_URL: `http://127.0.0.1:${GATEWAY_PORT}` },
      resources: { memoryMb: 256, cpus: 1, pids: 128 },
      gatewaySocketDir: socketDir,
      gatewaySocketName: socketName,
      gatewayPort: GATEWAY_PORT,
      network: 'none',
    };
    const sandbox = await provider.start(spec);
    try {
      return await sandbox.run(w);
    } finally {
      await sandbox.remove();
      gateway.trials.unregister(trial.token);
    }
  }

  test('the relay is socat: besides the command, no Node process runs in the container', async () => {
    const result = await runOnce(work({ command: ['ps', '-eo', 'comm='] }));
    const processes = result.stdout.toString().trim().split('\n');
    expect(processes).toContain('socat');
    expect(processes).not.toContain('node');
    expect(result.exitCode).toBe(0);
  });

  test('a gateway that does not answer fails the run before the command starts', async () => {
    await expect(runOnce(work({ command: ['sh', '-c', 'echo ran'] }), 'no-such.sock')).rejects.toThrow(/cannot reach the gateway/);
  });

  test('a trial with one file in and one out costs the engine at most nine requests', async () => {
    countEngineCalls();
    await runOnce(work({ command: ['true'] })); // the engine's name is asked once per provider
    const before = dockerUsage.apiCalls;
    const result = await runOnce(work({ files: [{ path: '/app/in.txt', content: 'x' }], command: ['cp', '/app/in.txt', '/app/answer.txt'], collectFiles: ['/app/answer.txt'] }));
    expect(result.files['/app/answer.txt']?.toString()).toBe('x');
    // create, start, put the archive, exec create/start/inspect, get the archive, remove
    expect(dockerUsage.apiCalls - before).toBeLessThanOrEqual(8);
  });
});
