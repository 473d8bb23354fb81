/**
 * A Docker container that tests and benches reach into: started with a relay to the gateway as its first
 * process, commands exec'd in, files put in and copied out through archives. Not an environment and not
 * what trials use (they run self-contained, environment.ts); it runs a trial's work too (`run`), by exec.
 */
import { PassThrough, type Writable } from 'node:stream';
import { docker } from '../../../common/docker.js';
import { NO_GATEWAY } from '../../../trial/handover.js';
import type { EnvironmentSpec, FileToPut, SandboxFate, TrialWork, TrialWorkResult } from '../types.js';
import { createTrialContainer, DockerSandbox, SOCKET_MOUNT } from './container.js';
import { collectByArchive, copyDirOut, copyFileOut } from './copy-out.js';
import { containerFate } from './fate.js';
import { tarOf, type CopyOptions } from './tar.js';
import { outputCuts, outputSinks } from './output.js';

export interface ExecOptions {
  env?: Record<string, string>;
  workdir?: string;
  user?: string;
  /** Hard wall-clock limit; past it the whole container is killed. */
  timeoutMs?: number;
  stdout?: Writable;
  stderr?: Writable;
}

export interface ExecResult {
  exitCode: number | null;
  timedOut: boolean;
  /** Set when the command did not end normally (non-zero, killed, timed out) and the engine could tell. */
  fate?: SandboxFate;
  durationMs: number;
  /** What the command printed, when no stream was given for it (up to 1 MiB each). */
  stdout: string;
  stderr: string;
}

const CAPTURE_LIMIT = 1024 * 1024;
/** Exit status of the gateway check when the gateway never answered (the command did not run). */
const NO_GATEWAY_EXIT = 199;

/**
 * The container's first process: socat relaying 127.0.0.1:PORT to the gateway's socket (a process per
 * connection, no runtime to start); in an image without socat, the `tools` command's Node relay.
 */
export function relayCommand(port: number, socket: string): string[] {
  const socat = `socat TCP-LISTEN:${port},bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:${socket}`;
  return ['/bin/sh', '-c', `command -v socat >/dev/null && exec ${socat} || exec tools --forward ${port} ${socket}`];
}

/**
 * The command, run once the gateway answers /healthz on 127.0.0.1:PORT (retried for about 10 s: the relay
 * starts with the container). The check is bash's own /dev/tcp, in the same exec as the command: no
 * engine round trips and no program of its own (a forked subshell); `exec` leaves the command as the process it always was.
 */
export function afterGatewayCheck(port: number, command: string[]): string[] {
  const check =
    `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET /healthz HTTP/1.0\r\nAuthorization: Bearer %s\r\n\r\n' "$AAR_TRIAL_TOKEN" >&3 ` +
    `&& IFS= read -r -t 5 line <&3 && [[ $line == *' 200 '* ]]`;
  // In a subshell: a relay that drops the connection (SIGPIPE) or any failure ends the check, not the script,
  // and the connection closes with it (the command inherits no descriptor).
  const script = `for i in {1..200}; do ( ${check} ) 2>/dev/null && exec "$@"; sleep 0.05; done; echo '${NO_GATEWAY}' >&2; exit ${NO_GATEWAY_EXIT}`;
  return ['bash', '-c', script, 'aar-trial', ...command];
}

/** Collects a stream into a string, up to a limit. */
function capture(): { sink: Writable; text: () => string } {
  let text = '';
  const sink = new PassThrough();
  sink.setEncoding('utf8');
  sink.on('data', (d: string) => {
    if (text.length < CAPTURE_LIMIT) text += d;
  });
  return { sink, text: () => text };
}

export class ExecSandbox extends DockerSandbox {
  private constructor(
    container: ConstructorParameters<typeof DockerSandbox>[0],
    private readonly gatewayPort: number,
  ) {
    super(container, null);
  }

  /** A running container for the spec (its handover, if any, is not used: the work is exec'd in). */
  static async start(spec: Omit<EnvironmentSpec, 'handover'>): Promise<ExecSandbox> {
    const container = await createTrialContainer(spec, relayCommand(spec.gatewayPort, `${SOCKET_MOUNT}/${spec.gatewaySocketName}`));
    try {
      await container.start();
    } catch (error) {
      await container.remove({ force: true }).catch(() => {});
      throw error;
    }
    return new ExecSandbox(container, spec.gatewayPort);
  }

  /** Runs a command in the container under an optional timeout (past it the whole container is killed). */
  async exec(command: string[], options: ExecOptions = {}): Promise<ExecResult> {
    const started = performance.now();
    const startedAt = Date.now();
    const exec = await this.container.exec({
      Cmd: command,
      Env: Object.entries(options.env ?? {}).map(([k, v]) => `${k}=${v}`),
      WorkingDir: options.workdir,
      User: options.user,
      AttachStdin: false,
      AttachStdout: true,
      AttachStderr: true,
      Tty: false,
    });
    const stream = await exec.start({ hijack: true, stdin: false });
    const out = options.stdout ? undefined : capture();
    const err = options.stderr ? undefined : capture();
    docker().modem.demuxStream(stream, options.stdout ?? out!.sink, options.stderr ?? err!.sink);
    let timedOut = false;
    let fate: SandboxFate | undefined;
    await new Promise<void>((resolve) => {
      const timer = options.timeoutMs
        ? setTimeout(() => {
            timedOut = true;
            // A container paused (or killed) from outside also runs into the timeout: look before killing it.
            void containerFate(this.container.id, startedAt, this.killedAt, 0)
              .then((f) => (fate = f))
              // Killing the container stops the whole process tree at once; its files stay readable.
              .finally(() => this.kill().finally(resolve));
          }, options.timeoutMs)
        : undefined;
      const done = (): void => {
        if (timer) clearTimeout(timer);
        resolve();
      };
      stream.on('end', done);
      stream.on('close', done);
      stream.on('error', done);
    });
    let exitCode: number | null = null;
    try {
      exitCode = (await exec.inspect()).ExitCode ?? null;
    } catch {
      exitCode = null;
    }
    // A command that failed may have been killed, paused or removed from outside, or OOM-killed: ask the engine.
    if (!timedOut && exitCode !== 0 && (exitCode === null || exitCode >= 128 || !(await this.isRunning()))) {
      fate = await containerFate(this.container.id, startedAt, this.killedAt);
    }
    return {
      // A container removed under the command: the status the engine reports (126, 137) is not the command's.
      exitCode: timedOut || fate?.outside === 'removed' ? null : exitCode,
      timedOut,
      ...(fate && (fate.outside || fate.oomAtOwnLimit) ? { fate } : {}),
      durationMs: performance.now() - started,
      stdout: out?.text() ?? '',
      stderr: err?.text() ?? '',
    };
  }

  async putFiles(files: FileToPut[]): Promise<void> {
    await this.container.putArchive(tarOf(files), { path: '/' });
  }

  /** A file's bytes (at most `options.maxBytes`, cut where no UTF-8 character is split), or null when it does not exist. */
  getFile(path: string, options?: CopyOptions): Promise<Buffer | null> {
    return copyFileOut(this.container, path, options);
  }

  /** Copies a folder out into a host folder, each file cut at `options.maxBytes` with a marker line; returns the number of files. */
  getDir(path: string, hostDir: string, options?: CopyOptions): Promise<number> {
    return copyDirOut(this.container, path, hostDir, options);
  }

  async isRunning(): Promise<boolean> {
    try {
      return (await this.container.inspect()).State.Running;
    } catch {
      return false;
    }
  }

  /**
   * A trial's work by exec: files in (one archive), the command under the timeout once the gateway answers,
   * files out. Throws when the gateway cannot be reached.
   */
  async run(work: TrialWork): Promise<TrialWorkResult> {
    await this.putFiles(work.files);
    const { out, err } = outputSinks(work);
    const result = await this.exec(afterGatewayCheck(this.gatewayPort, work.command), { timeoutMs: work.timeoutMs, stdout: out.sink, stderr: err.sink, workdir: work.workdir, env: work.env });
    if (result.exitCode === NO_GATEWAY_EXIT && err.bytes().includes(NO_GATEWAY)) throw new Error(`${NO_GATEWAY} on 127.0.0.1:${this.gatewayPort} (no answer within 10 s)`);
    const cuts = outputCuts(out, err, work.limits.logBytes);
    const { files, dirs } = await collectByArchive(this.container, work, cuts);
    return {
      exitCode: result.exitCode,
      timedOut: result.timedOut,
      durationMs: result.durationMs,
      stdout: out.bytes(),
      stderr: err.bytes(),
      files,
      dirs,
      node: this.node,
      cuts,
      ...(result.fate ? { fate: result.fate } : {}),
    };
  }
}
