import { writeFileSync } from 'node:fs';
import { docker, engineAnswers, NO_DOCKER_HINT, dockerAvailable } from '../../../common/docker.js';
import type { EnvironmentProvider, EnvironmentSpec, SandboxInfo, TrialEnvironment, TrialWork, TrialWorkResult, WorkHandover } from '../types.js';
import { createTrialContainer, DockerSandbox, SOCKET_MOUNT } from './container.js';
import { runSelfContained, WORK_WAIT_S } from './self-contained.js';
import { countEngineCalls, dockerUsage } from './usage.js';

/** A trial's container: created, not started; `run` starts it with `tools --trial` as its first process (self-contained.ts). */
class DockerTrialEnvironment extends DockerSandbox implements TrialEnvironment {
  constructor(
    container: ConstructorParameters<typeof DockerSandbox>[0],
    node: string | null,
    private readonly handover: WorkHandover,
  ) {
    super(container, node);
  }

  run(work: TrialWork): Promise<TrialWorkResult> {
    return runSelfContained(this, this.handover, work);
  }
}

const labelFilter = (labels: Record<string, string>) => ({ label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) });

/**
 * Trials in Docker: one container per trial, with memory, CPU and process limits, no privileges, no
 * Docker socket, and by default no network: the gateway's Unix socket, mounted from the host, is all of
 * the host it can reach. Its first process, `tools --trial`, fetches the work through it and hands back the result.
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
    void this.askEngineName();
  }

  answers(): Promise<boolean> {
    return engineAnswers();
  }

  /** The engine's name (the machine that runs the trials), asked once. */
  private askEngineName(): Promise<string | null> {
    return (this.engineName ??= docker().info().then((info: { Name?: string }) => info.Name ?? null, () => null));
  }

  /** The container is created, not started: `run` starts it, attached like `docker run`. */
  async start(spec: EnvironmentSpec): Promise<TrialEnvironment> {
    const relay = [`AAR_GATEWAY_RELAY=${SOCKET_MOUNT}/${spec.gatewaySocketName}`, 'AAR_TRIAL_ECHO=1', `AAR_WORK_WAIT_S=${WORK_WAIT_S}`];
    const container = await createTrialContainer(spec, ['tools', '--trial'], relay, true);
    return new DockerTrialEnvironment(container, await this.askEngineName(), spec.handover);
  }

  async listByLabels(labels: Record<string, string>): Promise<SandboxInfo[]> {
    const containers = await docker().listContainers({ all: true, filters: labelFilter(labels) });
    return containers.map((c) => ({ id: c.Id, labels: c.Labels ?? {}, state: c.State }));
  }

  async removeByLabels(labels: Record<string, string>): Promise<number> {
    const containers = await docker().listContainers({ all: true, filters: labelFilter(labels) });
    await Promise.all(containers.map((c) => docker().getContainer(c.Id).remove({ force: true, v: true }).catch(() => {})));
    return containers.length;
  }
}
