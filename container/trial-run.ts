import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { HANDOVER_PATHS, NO_GATEWAY, type TrialResultWire, type TrialWorkWire } from '../trial/handover.js';
import { bounded, type CommandOutcome } from './bounded.js';
import { startForward } from './forward.js';
import { inProcessProgram, runInProcess } from './in-process.js';
import { gatewayFromEnv, getJson, postJson, type GatewayAddress } from './gateway-client.js';
import { killProcessGroup } from './process-group.js';
import { collectResult } from './trial-result.js';

async function fetchWork(gateway: GatewayAddress, waitS: number): Promise<TrialWorkWire> {
  const deadline = Date.now() + waitS * 1000;
  for (;;) {
    try {
      return (await getJson(gateway, HANDOVER_PATHS.work, 10_000)) as unknown as TrialWorkWire;
    } catch (error) {
      // The relay and the network's name service can take a moment on a node that just started the task.
      if (Date.now() > deadline) throw new Error(`${NO_GATEWAY} (${(error as Error).message})`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * Runs the command in its own process group, killed whole at the timeout. With `echo`, the output is passed
 * on to this process's own stdout and stderr as it comes (the harness reads it live there) and not kept.
 */
function runCommand(work: TrialWorkWire, echo: boolean): Promise<CommandOutcome> {
  const started = Date.now();
  const out = bounded(work.limits.log_bytes);
  const err = bounded(work.limits.log_bytes);
  return new Promise((resolve) => {
    let timedOut = false;
    const child = spawn(work.command[0], work.command.slice(1), {
      cwd: work.workdir,
      env: { ...process.env, ...work.env },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    if (echo) {
      // Piped: a command that writes faster than the harness reads is slowed down, not buffered here.
      child.stdout.pipe(process.stdout, { end: false });
      child.stderr.pipe(process.stderr, { end: false });
    } else {
      child.stdout.on('data', out.add);
      child.stderr.on('data', err.add);
    }
    const timer = setTimeout(() => {
      timedOut = true;
      killProcessGroup(child);
    }, work.timeout_ms);
    const finish = (code: number | null): void => {
      clearTimeout(timer);
      const output = { stdout: out.bytes(), stderr: err.bytes(), stdoutSize: out.size(), stderrSize: err.size() };
      resolve({ exit_code: timedOut ? null : code, timed_out: timedOut, duration_ms: Date.now() - started, output });
    };
    child.on('error', (e) => {
      err.add(Buffer.from(`${work.command[0]}: ${e.message}\n`));
      finish(127);
    });
    child.on('exit', (code, signal) => {
      const status = code ?? (signal ? 128 + (os.constants.signals[signal] ?? 0) : null);
      // A child that keeps the pipes open must not hold the result back for long.
      const grace = setTimeout(() => finish(status), 2_000);
      child.on('close', () => {
        clearTimeout(grace);
        finish(status);
      });
    });
  });
}

/** Resolves once everything written to the stream has reached the operating system (a full pipe queues writes). */
async function flushed(stream: NodeJS.WriteStream): Promise<void> {
  while (stream.writableLength > 0) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** What this process wrote to its stdout and stderr (pipes to the engine, when attached); nothing when it cannot tell. */
function echoedBytes(): { echoed?: { stdout: number; stderr: number } } {
  const stdout = (process.stdout as { bytesWritten?: unknown }).bytesWritten;
  const stderr = (process.stderr as { bytesWritten?: unknown }).bytesWritten;
  return typeof stdout === 'number' && typeof stderr === 'number' ? { echoed: { stdout, stderr } } : {};
}

/**
 * `tools --trial`: the entrypoint of a self-contained trial (docker and swarm). Relays 127.0.0.1:PORT of
 * AAR_GATEWAY_URL to AAR_GATEWAY_RELAY (the gateway's Unix socket, or its relay on the swarm network),
 * fetches the trial's work from the gateway with the trial token, writes its files, runs its command under
 * its timeout, and posts the exit status, the output and the collected files back. Nothing reaches into
 * the container, so it can run on any node.
 *   AAR_TRIAL_ECHO=1    the output goes to this process's stdout/stderr live instead of into the result
 *   AAR_WORK_WAIT_S=N   how long the gateway may take to hand out the work (default 60)
 */
export async function runTrial(): Promise<number> {
  // The `tools` command's compile cache (images/base/Dockerfile) is this process's own: an agent's Node
  // processes would write theirs into the image's folder.
  delete process.env.NODE_COMPILE_CACHE;
  const relay = process.env.AAR_GATEWAY_RELAY;
  if (!relay) throw new Error('AAR_GATEWAY_RELAY is not set: tools --trial runs as a trial container entrypoint');
  const fromEnv = gatewayFromEnv();
  const overSocket = relay.startsWith('/');
  // Over a mounted socket this process talks to the gateway directly and the relay is for the agent; over
  // the network (swarm) this process, too, reaches the gateway through the relay, so it starts first.
  const gateway = overSocket ? { ...fromEnv, socketPath: relay } : fromEnv;
  const local = new URL(fromEnv.url ?? 'http://127.0.0.1:8900');
  const startRelay = async () => {
    const server = startForward({ host: '127.0.0.1', port: Number(local.port || 80) }, relay);
    // Listening before anything uses it: an agent's first request comes as soon as it starts.
    await once(server, 'listening');
    return server;
  };
  let forwarder = overSocket ? null : await startRelay();
  const work = await fetchWork(gateway, Number(process.env.AAR_WORK_WAIT_S ?? 60));
  for (const f of work.files) {
    mkdirSync(path.dirname(f.path), { recursive: true });
    writeFileSync(f.path, Buffer.from(f.content_b64, 'base64'));
    chmodSync(f.path, f.mode);
  }
  const echo = process.env.AAR_TRIAL_ECHO === '1';
  // A built-in program runs in this process; over a mounted socket it calls the gateway directly, so the
  // relay for agents in their own processes is not started.
  const program = inProcessProgram(work);
  if (program && overSocket) process.env.AAR_GATEWAY_SOCKET = relay;
  if (!forwarder && !program) forwarder = await startRelay();
  const ran = program ? await runInProcess(work, program, echo) : await runCommand(work, echo);
  // The harness reads the output until the container stops: all of it must be out before the result.
  if (echo) await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  const { files, dirs, stdout, stderr, cuts } = collectResult(work, ran.output);
  const body: TrialResultWire = {
    exit_code: ran.exit_code,
    timed_out: ran.timed_out,
    duration_ms: ran.duration_ms,
    stdout_b64: stdout.toString('base64'),
    stderr_b64: stderr.toString('base64'),
    files,
    dirs,
    node: process.env.AAR_NODE ?? null,
    cuts,
    ...(echo ? echoedBytes() : {}),
  };
  for (let attempt = 1; ; attempt++) {
    try {
      await postJson(gateway, HANDOVER_PATHS.result, body, 120_000);
      break;
    } catch (error) {
      if (attempt >= 5 || /refused the call \(4\d\d\)/.test((error as Error).message)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 1000 * attempt));
    }
  }
  forwarder?.close();
  return 0;
}
