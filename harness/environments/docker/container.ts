import type Docker from 'dockerode';
import { docker } from '../../../common/docker.js';
import type { EnvironmentSpec } from '../types.js';
import { recordContainerCpu } from './usage.js';

/** Capabilities a trial keeps (Docker's defaults minus network and system ones it has no use for). */
const KEEP_CAPABILITIES = ['CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'SETGID', 'SETUID'];

/** Where the gateway's socket folder is mounted in every container. */
export const SOCKET_MOUNT = '/run/aar';

export const isNotFound = (error: unknown): boolean => (error as { statusCode?: number }).statusCode === 404;
const isConflict = (error: unknown): boolean => (error as { statusCode?: number }).statusCode === 409;

/**
 * A trial's container, created (not started) from the spec: memory, CPU and process limits, no privileges,
 * the spec's network (by default none), and the gateway's socket folder mounted read-only, which is all of
 * the host it can reach. `first` is its first process, `env` added to the spec's; `attached`: its output is
 * read over the attach stream (the engine does not also log it).
 */
export function createTrialContainer(spec: Omit<EnvironmentSpec, 'handover'>, first: string[], env: string[] = [], attached = false): Promise<Docker.Container> {
  const memory = spec.resources.memoryMb * 1024 * 1024;
  return docker().createContainer({
    Image: spec.image,
    Cmd: first,
    Env: [...Object.entries(spec.env).map(([k, v]) => `${k}=${v}`), ...env],
    Labels: spec.labels,
    WorkingDir: '/app',
    AttachStdout: attached,
    AttachStderr: attached,
    HostConfig: {
      ...(attached ? { LogConfig: { Type: 'none', Config: {} } } : {}),
      Init: true,
      Memory: memory,
      MemorySwap: memory,
      NanoCpus: Math.round(spec.resources.cpus * 1e9),
      PidsLimit: spec.resources.pids,
      NetworkMode: spec.network,
      Binds: [`${spec.gatewaySocketDir}:${SOCKET_MOUNT}:ro`],
      Privileged: false,
      SecurityOpt: ['no-new-privileges'],
      CapDrop: ['ALL'],
      CapAdd: KEEP_CAPABILITIES,
    },
  });
}

/** A container the harness made for one trial: killed and removed the same way whatever runs in it. */
export class DockerSandbox {
  private removal?: Promise<void>;
  /** When the harness first killed the container itself (a timeout, a stopped job); Infinity when it did not. */
  killedAt = Infinity;

  constructor(
    readonly container: Docker.Container,
    /** The engine's name: the machine that runs it. */
    readonly node: string | null,
  ) {}

  get id(): string {
    return this.container.id;
  }

  /** Stops every process at once (its files stay readable). */
  async kill(): Promise<void> {
    this.killedAt = Math.min(this.killedAt, Date.now());
    try {
      await this.container.kill({ signal: 'SIGKILL' });
    } catch (error) {
      // already stopped (409) or gone (404)
      if (!isNotFound(error) && !isConflict(error)) throw error;
    }
  }

  /** Removes the container (killed first if it still runs); safe to call twice, and while a removal is under way. */
  remove(): Promise<void> {
    recordContainerCpu(this.container.id);
    return (this.removal ??= this.container.remove({ force: true, v: true }).catch((error: unknown) => {
      if (isNotFound(error) || isConflict(error)) return;
      this.removal = undefined;
      throw error;
    }));
  }
}
