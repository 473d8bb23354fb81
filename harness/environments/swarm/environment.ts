import { randomBytes } from 'node:crypto';
import { docker, engineAnswers, dockerAvailable, NO_DOCKER_HINT } from '../../../common/docker.js';
import { noOutput } from '../no-output.js';
import type { EnvironmentProvider, EnvironmentSpec, SandboxInfo, TrialEnvironment, TrialWork, TrialWorkResult, WorkHandover } from '../types.js';
import { ImageDistributor } from './images.js';
import { createJobNetwork, removeServicesAndNetworks, type JobNetwork } from './network.js';
import { DEFAULT_SWARM_SETTINGS, type SwarmSettings } from './settings.js';
import { TaskWatcher, taskStates } from './tasks.js';

const KEEP_CAPABILITIES = ['CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_FOWNER', 'CAP_FSETID', 'CAP_KILL', 'CAP_SETGID', 'CAP_SETUID'];
const ALL_CAPABILITIES = ['ALL'];

interface ServiceInfo {
  ID?: string;
  Spec?: { Name?: string; Labels?: Record<string, string> };
}

const labelFilter = (labels: Record<string, string>) => ({ label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) });

const servicesByLabels = async (labels: Record<string, string>): Promise<ServiceInfo[]> =>
  (await docker().listServices({ filters: labelFilter(labels) } as never)) as unknown as ServiceInfo[];

export const NOT_A_MANAGER_HINT = 'this Docker engine is not a swarm manager: run `docker swarm init --advertise-addr <address>` (one node) or point DOCKER_HOST at a manager of your swarm';

class SwarmTrialEnvironment implements TrialEnvironment {
  private removed = false;
  private readonly watcher: TaskWatcher;
  /** Settles when the service is removed (kill, remove, an interrupted job), ending a run at once. */
  private markRemoved!: () => void;
  private readonly removal = new Promise<void>((resolve) => (this.markRemoved = resolve));

  constructor(
    private readonly serviceName: string,
    private readonly handover: WorkHandover,
    settings: SwarmSettings,
  ) {
    this.watcher = new TaskWatcher(serviceName, settings.node_down_grace_s * 1000);
  }

  get id(): string {
    return this.serviceName;
  }

  /**
   * The work goes to the gateway; the container's entrypoint (`tools --trial`) fetches it, runs it under
   * the timeout and posts the result. Meanwhile the service's task is watched: a task that fails, or whose
   * node leaves, ends the run with an error (an infrastructure error to the trial runner). A container that
   * outlives its timeout by a minute is removed here and counted as timed out.
   */
  async run(work: TrialWork): Promise<TrialWorkResult> {
    this.handover.offer(work);
    const started = performance.now();
    const watching = this.watcher.watch(() => this.handover.fetched, work.timeoutMs + 60_000);
    try {
      const outcome = await Promise.race([
        this.handover.result().then((r) => ({ r })),
        watching.failed.then((f) => ({ f })),
        this.removal.then(() => ({ f: 'the trial service was removed before the trial ended' })),
      ]);
      // The handover timed the result on the harness's clock; the node is the swarm's word where it has one.
      if ('r' in outcome) return { ...outcome.r, node: this.watcher.nodeName ?? outcome.r.node };
      if (outcome.f === 'timeout') {
        await this.kill();
        return { ...noOutput(this.watcher.nodeName, performance.now() - (this.handover.fetchedAt ?? started)), exitCode: null, timedOut: true };
      }
      throw new Error(outcome.f);
    } finally {
      watching.stop();
    }
  }

  /** Removing the service stops its container wherever it runs (no file comes back from a killed trial). */
  async kill(): Promise<void> {
    await this.remove();
  }

  async remove(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    this.markRemoved();
    await docker()
      .getService(this.serviceName)
      .remove()
      .catch((e: { statusCode?: number }) => (e.statusCode === 404 ? undefined : Promise.reject(e)));
  }
}

/**
 * Trials on a Docker Swarm: one service per trial (one replica, restart: none), with memory, CPU and
 * process limits and dropped capabilities, on the job's internal overlay network whose only other member
 * is the gateway's relay (network.ts). The container's entrypoint runs the whole trial (tools --trial);
 * files go in and out through the gateway. Concurrency is the job's: it caps the trials in flight.
 */
export class SwarmEnvironmentProvider implements EnvironmentProvider {
  readonly name = 'swarm';
  private readonly images: ImageDistributor;
  private readonly networks = new Map<string, Promise<JobNetwork>>();
  /** Prefix of every service and network name (tests use aar-test-). */
  private readonly prefix: string;

  constructor(
    private readonly settings: SwarmSettings = DEFAULT_SWARM_SETTINGS,
  ) {
    this.images = new ImageDistributor(settings);
    this.prefix = settings.name_prefix;
  }

  async check(): Promise<void> {
    if (!(await dockerAvailable())) throw new Error(NO_DOCKER_HINT);
    const info = (await docker().info()) as { Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean } };
    if (info.Swarm?.LocalNodeState !== 'active' || !info.Swarm.ControlAvailable) throw new Error(NOT_A_MANAGER_HINT);
  }

  answers(): Promise<boolean> {
    return engineAnswers();
  }

  private jobNetwork(spec: EnvironmentSpec, image: string): Promise<JobNetwork> {
    const key = `${spec.labels['aar.job_key'] ?? ''}\0${spec.gatewaySocketDir}\0${spec.network}`;
    let pending = this.networks.get(key);
    if (!pending) {
      pending = createJobNetwork(spec, this.prefix, image);
      this.networks.set(key, pending);
      pending.catch(() => this.networks.delete(key));
    }
    return pending;
  }

  async start(spec: EnvironmentSpec): Promise<TrialEnvironment> {
    const image = await this.images.imageFor(spec.image);
    const net = await this.jobNetwork(spec, image);
    const name = `${this.prefix}trial-${randomBytes(6).toString('hex')}`;
    const memory = spec.resources.memoryMb * 1024 * 1024;
    await docker().createService({
      Name: name,
      Labels: spec.labels,
      TaskTemplate: {
        ContainerSpec: {
          Image: image,
          Command: ['tools', '--trial'],
          Env: [...Object.entries(spec.env).map(([k, v]) => `${k}=${v}`), `AAR_GATEWAY_RELAY=${net.relay}`, 'AAR_NODE={{.Node.Hostname}}'],
          Labels: spec.labels,
          Dir: '/app',
          Init: true,
          CapabilityDrop: ALL_CAPABILITIES,
          CapabilityAdd: KEEP_CAPABILITIES,
        },
        Resources: { Limits: { MemoryBytes: memory, NanoCPUs: Math.round(spec.resources.cpus * 1e9), Pids: spec.resources.pids } },
        RestartPolicy: { Condition: 'none' },
        Networks: [{ Target: net.networkId }],
      },
      // A one-replica service that is never restarted. (A replicated-job would fit, but Docker 20.10 leaves a
      // removed job's containers running.)
      Mode: { Replicated: { Replicas: 1 } },
    } as never);
    return new SwarmTrialEnvironment(name, spec.handover, this.settings);
  }

  /** The trial services whose labels include all of these (not the jobs' relays), each in its task's state. */
  async listByLabels(labels: Record<string, string>): Promise<SandboxInfo[]> {
    const trials = (await servicesByLabels(labels)).filter((s) => s.Spec?.Labels?.['aar.role'] !== 'relay');
    const states = await taskStates(trials.map((s) => s.ID!));
    return trials.map((s) => ({ id: s.Spec!.Name!, labels: s.Spec?.Labels ?? {}, state: states.get(s.ID!) ?? 'unknown' }));
  }

  /** Removes the services (trials and relays) and networks whose labels include all of these; returns how many trials. */
  async removeByLabels(labels: Record<string, string>): Promise<number> {
    const services = await servicesByLabels(labels);
    const networks = (await docker().listNetworks({ filters: labelFilter(labels) })) as { Id: string; Driver?: string }[];
    const names = services.map((s) => s.Spec!.Name!);
    const overlays = networks.filter((n) => n.Driver === 'overlay').map((n) => n.Id);
    await removeServicesAndNetworks(names, overlays);
    // A job network removed here is made again by the next start; the others stay in use.
    for (const [key, pending] of this.networks) {
      const made = await pending.catch(() => undefined);
      if (!made || overlays.includes(made.networkId)) this.networks.delete(key);
    }
    return services.filter((s) => s.Spec?.Labels?.['aar.role'] !== 'relay').length;
  }

  /** Removes the relays and networks made for jobs. */
  async close(): Promise<void> {
    const made = await Promise.allSettled(this.networks.values());
    this.networks.clear();
    const ok = made.flatMap((m) => (m.status === 'fulfilled' ? [m.value] : []));
    await removeServicesAndNetworks(ok.flatMap((n) => n.services), ok.flatMap((n) => n.networks));
  }
}
