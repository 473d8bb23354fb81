/**
 * A docker trial's path: the gateway hands the work over, `tools --trial` is the container's first process,
 * nothing is exec'd and no archive moves, the output comes live over the attach stream, and a gateway that
 * cannot be reached fails the run before the command starts. (The exec'd path tests use: exec-sandbox.test.ts.)
 */
import { jest } from '@jest/globals';
import { execa } from 'execa';
import { buffer } from 'node:stream/consumers';
import { pack } from 'tar-stream';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DockerEnvironmentProvider } from '../../../../harness/environments/docker/environment.js';
import { countEngineCalls, dockerUsage } from '../../../../harness/environments/docker/usage.js';
import type { TrialWork } from '../../../../harness/environments/types.js';
import { GatewayServer } from '../../../../harness/gateway/server.js';
import { ensureBaseImage } from '../../../../images/build.js';
import { dockerAvailable } from '../../../../common/docker.js';
import { cutMarker } from '../../../../trial/copy-limits.js';
import type { ProviderContext } from '../../../../tools/providers/types.js';
import { ToolService } from '../../../../tools/service.js';
import { sandboxSpec, work } from '../conformance.js';

/** A tar archive with one empty folder: an image with nothing in it. */
function emptyTar(): Promise<Buffer> {
  const tar = pack();
  tar.entry({ name: 'app/', type: 'directory' });
  tar.finalize();
  return buffer(tar);
}

const HAVE_DOCKER = await dockerAvailable();
const image = HAVE_DOCKER ? await ensureBaseImage() : '';
const suite = `aar-test-trial-path-${process.pid}`;
const labels = { 'aar-harness': '1', 'aar.job_key': suite };
jest.setTimeout(120_000);

(HAVE_DOCKER ? describe : describe.skip)('docker trial paths', () => {
  const provider = new DockerEnvironmentProvider();
  let gateway: GatewayServer;
  let socketDir: string;

  beforeAll(async () => {
    await provider.check();
    gateway = new GatewayServer({ tools: new ToolService({ mode: 'live', providers: {} as ProviderContext }) });
    socketDir = mkdtempSync(path.join(os.tmpdir(), 'aar-trial-path-'));
    await gateway.listenSocket(path.join(socketDir, 'gateway.sock'));
  });
  afterAll(async () => {
    await provider.removeByLabels({ 'aar.job_key': suite });
    await gateway.close();
    rmSync(socketDir, { recursive: true, force: true });
  });

  async function runOnce(w: TrialWork, options: { socketName?: string; image?: string } = {}) {
    const trial = gateway.trials.register({ trialId: 'path', toolLogPath: path.join(socketDir, 'tool_log.jsonl') });
    const sandbox = await provider.start(sandboxSpec({ image: options.image ?? image, labels, token: trial.token, socketDir, socketName: options.socketName, handover: trial.handover }));
    try {
      return await sandbox.run(w);
    } finally {
      await sandbox.remove();
      gateway.trials.unregister(trial.token);
    }
  }

  /** Engine requests made by one run (the engine's name is asked once per provider, at check). */
  async function engineCalls(run: () => Promise<unknown>): Promise<number> {
    countEngineCalls();
    const before = dockerUsage.apiCalls;
    await run();
    return dockerUsage.apiCalls - before;
  }

  describe('self-contained', () => {
    test('tools --trial is the first process and the command its child: no relay process, nothing exec\'d', async () => {
      const result = await runOnce(work({ command: ['ps', '-o', 'pid=,ppid=,args=', '-e'] }));
      const rows = result.stdout.toString().trim().split('\n').map((l) => l.trim().split(/\s+/));
      const entry = rows.find((r) => r.slice(2).join(' ').endsWith('tools.cjs --trial'));
      expect(entry).toBeDefined();
      expect(rows.find((r) => r[2] === 'ps')?.[1]).toBe(entry![0]);
      expect(rows.map((r) => r[2])).not.toContain('socat');
      expect(result.exitCode).toBe(0);
    });

    test('a trial with one file in and one out costs the engine six requests: create, attach, events (a pause), wait, start, remove', async () => {
      let answer: Buffer | null | undefined;
      const calls = await engineCalls(async () => {
        const result = await runOnce(work({ files: [{ path: '/app/in.txt', content: 'x' }], command: ['cp', '/app/in.txt', '/app/answer.txt'], collectFiles: ['/app/answer.txt'] }));
        answer = result.files['/app/answer.txt'];
      });
      expect(answer?.toString()).toBe('x');
      expect(calls).toBe(6);
    });

    test('trials running at once share one watch for a pause: three trials cost five requests each and one more', async () => {
      const calls = await engineCalls(async () => {
        const results = await Promise.all([1, 2, 3].map(() => runOnce(work({ command: ['sleep', '1'] }))));
        expect(results.map((r) => r.exitCode)).toEqual([0, 0, 0]);
      });
      expect(calls).toBe(3 * 5 + 1);
    });

    test('output written just before the exit arrives whole: the result says how many bytes to wait for', async () => {
      // 2 MiB to stdout and 64 KiB to stderr in the last instant of the run, past what one read takes.
      const result = await runOnce(work({ command: ['sh', '-c', 'head -c 2097152 /dev/zero | tr "\\0" a; head -c 65536 /dev/zero | tr "\\0" b >&2'], onOutput: () => {} }));
      expect(result.exitCode).toBe(0);
      expect(result.echoed).toEqual({ stdout: 2097152, stderr: 65536 });
      expect(result.stderr.length).toBe(65536);
      // The kept part is bounded by the log limit; all of it was read (a cut says the whole size).
      const cut = result.cuts.find((c) => c.path === 'stdout');
      expect(cut ? cut.size : result.stdout.length).toBe(2097152);
    });

    test('a forged result claiming more output than came is taken as the agent\'s word, and the harness waits for the stop instead', async () => {
      // The agent posts its own result first, claiming 1 GB of output: the run's own result is then refused.
      const forged = JSON.stringify({ exit_code: 3, timed_out: false, duration_ms: 1, stdout_b64: '', stderr_b64: '', files: {}, dirs: {}, cuts: [], echoed: { stdout: 1e9, stderr: 0 } });
      const post = `curl -s -o /dev/null --unix-socket "$AAR_GATEWAY_RELAY" -H "Authorization: Bearer $AAR_TRIAL_TOKEN" -H 'content-type: application/json' -d '${forged}' http://gateway/v1/trial/result`;
      const started = Date.now();
      const result = await runOnce(work({ command: ['sh', '-c', `echo before; ${post}; echo after`], onOutput: () => {} }));
      expect(result.exitCode).toBe(3);
      expect(result.echoed).toEqual({ stdout: 1e9, stderr: 0 });
      // The output that did come is kept whole: the harness read on until the container stopped.
      expect(result.stdout.toString()).toBe('before\nafter\n');
      expect(Date.now() - started).toBeLessThan(20_000);
    });

    test('the output comes live, before the command ends, and whole with the result', async () => {
      const seen: { text: string; at: number }[] = [];
      const result = await runOnce(
        work({
          command: ['sh', '-c', 'echo first; echo oops >&2; sleep 2; echo second'],
          onOutput: (stream, chunk) => seen.push({ text: `${stream}:${chunk.toString()}`, at: Date.now() }),
        }),
      );
      const ended = Date.now();
      expect(result.stdout.toString()).toBe('first\nsecond\n');
      expect(result.stderr.toString()).toBe('oops\n');
      const first = seen.find((s) => s.text.includes('first'));
      expect(first).toBeDefined();
      expect(ended - first!.at).toBeGreaterThan(1_500);
    });

    test('output past the limit is cut and the cut is reported', async () => {
      const result = await runOnce(work({ command: ['sh', '-c', 'head -c 300000 /dev/zero | tr "\\0" x'], limits: { fileBytes: 4096, logBytes: 100_000 } }));
      expect(result.stdout.length).toBe(100_000);
      expect(result.cuts).toContainEqual({ path: 'stdout', size: 300_000, kept: 100_000 });
    });

    test('collected files are cut as the archive copy cuts them: the answer on a UTF-8 boundary, a log with its marker line', async () => {
      const script = `printf 'a%.0s' $(seq 4095) > /app/answer.txt; printf '\\303\\251' >> /app/answer.txt; mkdir -p /app/logs; head -c 5000 /dev/zero | tr '\\0' l > /app/logs/run.log`;
      const result = await runOnce(work({ command: ['bash', '-c', script], collectFiles: ['/app/answer.txt'], collectDirs: ['/app/logs'], limits: { fileBytes: 4096, logBytes: 1000 } }));
      expect(result.files['/app/answer.txt']?.length).toBe(4095);
      const log = result.dirs['/app/logs']['run.log'].toString();
      expect(log.startsWith('l'.repeat(1000))).toBe(true);
      expect(log.slice(1000)).toBe(cutMarker(5000, 1000));
      expect(result.cuts).toEqual(expect.arrayContaining([{ path: '/app/answer.txt', size: 4097, kept: 4095 }, { path: '/app/logs/run.log', size: 5000, kept: 1000 }]));
    });

    test('a gateway that cannot be reached fails the run before the command starts', async () => {
      const started = Date.now();
      await expect(runOnce(work({ command: ['sh', '-c', 'echo ran'] }), { socketName: 'no-such.sock' })).rejects.toThrow(/cannot reach the gateway/);
      expect(Date.now() - started).toBeLessThan(30_000);
    });

    test('an image without the tools command is named as such, not as an agent failure', async () => {
      const empty = `aar-test-empty:${process.pid}`;
      await execa('docker', ['import', '-', empty], { input: await emptyTar() });
      try {
        await expect(runOnce(work({ command: ['true'] }), { image: empty })).rejects.toThrow(/the image cannot run `tools --trial` \(exit status 127/);
      } finally {
        await execa('docker', ['rmi', '-f', empty]);
      }
    });
  });
});
