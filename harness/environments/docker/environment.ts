import type Docker from 'dockerode';
import { PassThrough, type Writable } from 'node:stream';
import { docker, engineAnswers, NO_DOCKER_HINT, dockerAvailable } from '../../../images/docker.js';
import { AnswerCopy, LOG_LIMIT_BYTES } from '../../../trial/copy-limits.js';
import type { CopyOptions, EnvironmentProvider, EnvironmentSpec, ExecOptions, ExecResult, FileToPut, SandboxFate, SandboxInfo, TrialEnvironment, TrialWork, TrialWorkResult, WorkHandover } from '../types.js';
import { containerFate } from './fate.js';
import { extractUnder, firstFileOfTar, tarOf } from './files.js';
import { runByExec } from '../exec-run.js';
import { runSelfContained, WORK_WAIT_S, type CreatedContainer } from './self-contained.js';
import { countEngineCalls, dockerUsage, recordContainerCpu } from './usage.js';
import { writeFileSync } from 'node:fs';

/** Capabilities a trial keeps (Docker's defaults minus network and system ones it has no use for). */
const KEEP_CAPABILITIES = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID'];
const CAPTURE_LIMIT = 1024 * 1024;

/**
 * The container's first process: socat relaying 127.0.0.1:PORT to the gateway's socket (a process per
 * connection, no runtime to start); in an image without socat, the `tools` command's Node relay.
 */
export function relayCommand(port: number, socket: string): string[] {
  const socat = `socat TCP-LISTEN:${port},bind=127.0.0.1,reuseaddr,fork UNIX-CONNECT:${socket}`;
  return ['/bin/sh', '-c', `command -v socat >/dev/null && exec ${socat} || exec tools --forward ${port} ${socket}`];
}

const NO_EXEC = 'this docker sandbox is self-contained (started with a work handover): it runs its work with run(), nothing is exec\'d into it';

const isNotFound = (error: unknown): boolean => (error as { statusCode?: number }).statusCode === 404;

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

class DockerTrialEnvironment implements TrialEnvironment, CreatedContainer {
  private removed = false;
  /** When the harness first killed the container itself (a timeout, a stopped job). */
  killedAt = Infinity;

  /**
   * @param handover set for a self-contained container (created, not started: `tools --trial` runs the work);
   * absent for a running one whose first process is the relay (work is exec'd in).
   */
  constructor(
    readonly container: Docker.Container,
    readonly node: string | null,
    private readonly gatewayPort: number,
    private readonly handover?: WorkHandover,
  ) {}

  get id(): string {
    return this.container.id;
  }

  run(work: TrialWork): Promise<TrialWorkResult> {
    return this.handover ? runSelfContained(this, this.handover, work) : runByExec(this, work, this.node, this.gatewayPort);
  }

  async exec(command: string[], options: ExecOptions = {}): Promise<ExecResult> {
    if (this.handover) throw new Error(NO_EXEC);
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
    // An agent that failed may have been killed, paused or removed from outside, or OOM-killed: ask the engine.
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

  async getFile(path: string, options: CopyOptions = {}): Promise<Buffer | null> {
    try {
      const maxBytes = options.maxBytes ?? LOG_LIMIT_BYTES;
      const file = await firstFileOfTar(await this.container.getArchive({ path }), options.answer ? new AnswerCopy(maxBytes) : maxBytes);
      if (file?.cut) options.onCut?.({ path, ...file.cut });
      return file?.content ?? null;
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async getDir(path: string, hostDir: string, options: CopyOptions = {}): Promise<number> {
    try {
      return await extractUnder(await this.container.getArchive({ path }), hostDir, options);
    } catch (error) {
      if (isNotFound(error)) return 0;
      throw error;
    }
  }

  async isRunning(): Promise<boolean> {
    try {
      return (await this.container.inspect()).State.Running;
    } catch {
      return false;
    }
  }

  async kill(): Promise<void> {
    this.killedAt = Math.min(this.killedAt, Date.now());
    try {
      await this.container.kill({ signal: 'SIGKILL' });
    } catch (error) {
      // already stopped (409) or gone (404)
      if (!isNotFound(error) && (error as { statusCode?: number }).statusCode !== 409) throw error;
    }
  }

  async remove(): Promise<void> {
    if (this.removed) return;
    recordContainerCpu(this.container.id);
    try {
      await this.container.remove({ force: true, v: true });
    } catch (error) {
      if (!isNotFound(error) && (error as { statusCode?: number }).statusCode !== 409) throw error;
    }
    this.removed = true;
  }
}

/**
 * Trials in Docker: one container per trial, with memory, CPU and process limits, no privileges, no
 * Docker socket, and by default no network: its first process relays 127.0.0.1:<port> to the gateway's
 * Unix socket, mounted from the host, which is all of the host it can reach.
 */
export class DockerEnvironmentProvider implements EnvironmentProvider {
  readonly name = 'docker';
  private engineName?: Promise<string | null>;
  /** AAR_ENGINE_USAGE=FILE (npm run bench:trials): engine calls and container CPU are counted and written there at the job's end. */
  private readonly usageFile = process.env.AAR_ENGINE_USAGE;

  constructor() {
    if (this.usageFile) countEngineCalls();
  }

  async close(): Promise<void> {
    if (this.usageFile) writeFileSync(this.usageFile, JSON.stringify(dockerUsage));
  }

  async check(): Promise<void> {
    if (!(await dockerAvailable())) throw new Error(NO_DOCKER_HINT);
    this.engineName ??= this.askEngineName();
  }

  answers(): Promise<boolean> {
    return engineAnswers();
  }

  /** The engine's name (the machine that runs the trials), asked once. */
  private askEngineName(): Promise<string | null> {
    return docker().info().then((info: { Name?: string }) => info.Name ?? null, () => null);
  }

  /**
   * With a work handover (every trial): the container is created, not started; `run` starts it with
   * `tools --trial` as its first process, attached like `docker run`. Without one: started at once with the
   * relay as its first process, for work exec'd in.
   */
  async start(spec: EnvironmentSpec): Promise<TrialEnvironment> {
    const memory = spec.resources.memoryMb * 1024 * 1024;
    const socket = `/run/aar/${spec.gatewaySocketName}`;
    const selfContained = spec.handover !== undefined;
    const container = await docker().createContainer({
      Image: spec.image,
      Cmd: selfContained ? ['tools', '--trial'] : relayCommand(spec.gatewayPort, socket),
      Env: [
        ...Object.entries(spec.env).map(([k, v]) => `${k}=${v}`),
        ...(selfContained ? [`AAR_GATEWAY_RELAY=${socket}`, 'AAR_TRIAL_ECHO=1', `AAR_WORK_WAIT_S=${WORK_WAIT_S}`] : []),
      ],
      Labels: spec.labels,
      WorkingDir: '/app',
      AttachStdout: selfContained,
      AttachStderr: selfContained,
      HostConfig: {
        // The output is read over the attach stream; the engine need not also log it.
        ...(selfContained ? { LogConfig: { Type: 'none', Config: {} } } : {}),
        Init: true,
        Memory: memory,
        MemorySwap: memory,
        NanoCpus: Math.round(spec.resources.cpus * 1e9),
        PidsLimit: spec.resources.pids,
        NetworkMode: spec.network,
        Binds: [`${spec.gatewaySocketDir}:/run/aar:ro`],
        Privileged: false,
        SecurityOpt: ['no-new-privileges'],
        CapDrop: ['ALL'],
        CapAdd: KEEP_CAPABILITIES,
      },
    });
    if (!selfContained) {
      try {
        await container.start();
      } catch (error) {
        await container.remove({ force: true }).catch(() => {});
        throw error;
      }
    }
    return new DockerTrialEnvironment(container, await (this.engineName ??= this.askEngineName()), spec.gatewayPort, spec.handover);
  }

  async listByLabels(labels: Record<string, string>): Promise<SandboxInfo[]> {
    const containers = await docker().listContainers({ all: true, filters: { label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) } });
    return containers.map((c) => ({ id: c.Id, labels: c.Labels ?? {}, state: c.State }));
  }

  async removeByLabels(labels: Record<string, string>): Promise<number> {
    const containers = await docker().listContainers({
      all: true,
      filters: { label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) },
    });
    await Promise.all(containers.map((c) => docker().getContainer(c.Id).remove({ force: true, v: true }).catch(() => {})));
    return containers.length;
  }
}
