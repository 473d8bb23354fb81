/**
 * The exec'd container tests and benches reach into (harness/environments/docker/exec-sandbox.ts): socat is
 * the relay, the gateway check runs in the command's exec, files go in and come out as archives. Trials
 * never use it (trial-path.test.ts, the conformance suite).
 */
import { jest } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ExecSandbox } from '../../../../harness/environments/docker/exec-sandbox.js';
import { countEngineCalls, dockerUsage } from '../../../../harness/environments/docker/usage.js';
import type { TrialWork } from '../../../../harness/environments/types.js';
import { GatewayServer } from '../../../../harness/gateway/server.js';
import { ensureBaseImage } from '../../../../images/build.js';
import { docker, dockerAvailable } from '../../../../common/docker.js';
import type { ProviderContext } from '../../../../tools/providers/types.js';
import { ToolService } from '../../../../tools/service.js';
import { expectFilesInOut, filesInOutWork, sandboxSpec, work } from '../conformance.js';

const HAVE_DOCKER = await dockerAvailable();
const image = HAVE_DOCKER ? await ensureBaseImage() : '';
const suite = `aar-test-exec-sandbox-${process.pid}`;
const labels = { 'aar-harness': '1', 'aar.job_key': suite };
jest.setTimeout(120_000);

(HAVE_DOCKER ? describe : describe.skip)('the exec sandbox', () => {
  let gateway: GatewayServer;
  let socketDir: string;

  beforeAll(async () => {
    gateway = new GatewayServer({ tools: new ToolService({ mode: 'live', providers: {} as ProviderContext }) });
    socketDir = mkdtempSync(path.join(os.tmpdir(), 'aar-exec-sandbox-'));
    await gateway.listenSocket(path.join(socketDir, 'gateway.sock'));
  });
  afterAll(async () => {
    const left = await docker().listContainers({ all: true, filters: { label: [`aar.job_key=${suite}`] } });
    await Promise.all(left.map((c) => docker().getContainer(c.Id).remove({ force: true })));
    await gateway.close();
    rmSync(socketDir, { recursive: true, force: true });
  });

  async function withSandbox<T>(use: (sandbox: ExecSandbox) => Promise<T>, socketName?: string): Promise<T> {
    const trial = gateway.trials.register({ trialId: 'exec', toolLogPath: path.join(socketDir, 'tool_log.jsonl') });
    const sandbox = await ExecSandbox.start(sandboxSpec({ image, labels, token: trial.token, socketDir, socketName, handover: trial.handover }));
    try {
      return await use(sandbox);
    } finally {
      await sandbox.remove();
      await sandbox.remove(); // safe twice
      gateway.trials.unregister(trial.token);
    }
  }
  const runOnce = (w: TrialWork, socketName?: string) => withSandbox((sandbox) => sandbox.run(w), socketName);

  test("a trial's work by exec: files in with their modes, the command in its folder with its environment, output and files out", async () => {
    const result = await runOnce(filesInOutWork('tools --ping; '));
    expect(result.stdout.toString()).toMatch(/^out hello \/app\n.*gateway ok/s);
    expectFilesInOut(result);
  });

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

  test('a trial with one file in and one out costs the engine at most eight requests', async () => {
    countEngineCalls();
    const before = dockerUsage.apiCalls;
    const result = await runOnce(work({ files: [{ path: '/app/in.txt', content: 'x' }], command: ['cp', '/app/in.txt', '/app/answer.txt'], collectFiles: ['/app/answer.txt'] }));
    expect(result.files['/app/answer.txt']?.toString()).toBe('x');
    // create, start, put the archive, exec create/start/inspect, get the archive, remove
    expect(dockerUsage.apiCalls - before).toBeLessThanOrEqual(8);
  });

  test('exec, getFile and getDir reach into the container; past its timeout an exec kills the container', async () => {
    const host = mkdtempSync(path.join(os.tmpdir(), 'aar-exec-dir-'));
    try {
      await withSandbox(async (sandbox) => {
        await sandbox.putFiles([{ path: '/app/notes/a.txt', content: 'alpha' }]);
        const listed = await sandbox.exec(['sh', '-c', 'cat /app/notes/a.txt; head -c 5000 /dev/zero | tr "\\0" z > /app/big.txt']);
        expect(listed).toMatchObject({ exitCode: 0, timedOut: false, stdout: 'alpha' });
        let cut: { size: number; kept: number } | undefined;
        expect((await sandbox.getFile('/app/big.txt', { maxBytes: 100, onCut: (c) => (cut = c) }))?.toString()).toBe('z'.repeat(100));
        expect(cut).toMatchObject({ size: 5000, kept: 100 });
        expect(await sandbox.getFile('/app/none.txt')).toBeNull();
        expect(await sandbox.getDir('/app/notes', host)).toBe(1);
        expect(readFileSync(path.join(host, 'a.txt'), 'utf8')).toBe('alpha');
        expect(await sandbox.isRunning()).toBe(true);
        const slow = await sandbox.exec(['sleep', '100'], { timeoutMs: 1_000 });
        expect(slow).toMatchObject({ exitCode: null, timedOut: true });
        // The engine says so a moment after the kill.
        for (const until = Date.now() + 10_000; (await sandbox.isRunning()) && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
        expect(await sandbox.isRunning()).toBe(false);
      });
    } finally {
      rmSync(host, { recursive: true, force: true });
    }
  });
});
