import { docker } from '../../../common/docker.js';
import type { EnvironmentSpec } from '../types.js';

/** The label naming a job's sandboxes (harness/jobs/trial.ts sets it on every trial). */
const JOB_LABEL = 'aar.job_key';

export interface JobNetwork {
  networkId: string;
  /** host:port of the gateway's relay on that network. */
  relay: string;
  services: string[];
  networks: string[];
}

const isGone = (error: unknown): boolean => (error as { statusCode?: number }).statusCode === 404;

/**
 * A job's network on the swarm: an overlay network (internal, so it has no route out of the cluster, when
 * the job's network is `none`) whose only member besides the trials is a relay pinned to this node: it
 * forwards TCP from the network to the gateway's Unix socket, mounted from here. The trials reach the
 * gateway through it from any node, and nothing else.
 */
export async function createJobNetwork(spec: EnvironmentSpec, prefix: string, relayImage: string): Promise<JobNetwork> {
  const key = spec.labels[JOB_LABEL] ?? 'nojob';
  const labels = { 'aar-harness': '1', [JOB_LABEL]: key, 'aar.role': 'relay' };
  const info = (await docker().info()) as { Swarm?: { NodeID?: string } };
  const name = `${prefix}net-${key}`;
  const network = await docker().createNetwork({
    Name: name,
    Driver: 'overlay',
    Internal: spec.network === 'none',
    Attachable: false,
    CheckDuplicate: true,
    Labels: labels,
  });
  const relayName = `${prefix}relay-${key}`;
  const socket = `/run/aar/${spec.gatewaySocketName}`;
  await docker().createService({
    Name: relayName,
    Labels: labels,
    TaskTemplate: {
      ContainerSpec: {
        Image: relayImage,
        Command: ['tools', '--forward', `0.0.0.0:${spec.gatewayPort}`, socket],
        Labels: labels,
        Mounts: [{ Type: 'bind', Source: spec.gatewaySocketDir, Target: '/run/aar', ReadOnly: true }],
        Init: true,
      },
      Resources: { Limits: { MemoryBytes: 256 * 1024 * 1024, NanoCPUs: 500_000_000 } },
      RestartPolicy: { Condition: 'any', Delay: 1_000_000_000 },
      Placement: { Constraints: [`node.id==${info.Swarm?.NodeID}`] },
      Networks: [{ Target: network.id }],
    },
    Mode: { Replicated: { Replicas: 1 } },
    // Trials resolve the relay's own address: the virtual-IP balancer does not pass traffic on internal overlays.
    EndpointSpec: { Mode: 'dnsrr' },
  } as never);
  return { networkId: network.id, relay: `${relayName}:${spec.gatewayPort}`, services: [relayName], networks: [network.id] };
}

/** Removes services, then networks (which stay busy until their tasks are gone: retried for a while). */
export async function removeServicesAndNetworks(services: string[], networks: string[]): Promise<void> {
  await Promise.all(services.map((s) => docker().getService(s).remove().catch((e: unknown) => (isGone(e) ? undefined : Promise.reject(e)))));
  const deadline = Date.now() + 90_000;
  for (const id of networks) {
    for (;;) {
      try {
        // Removed too early, while a container of this node still holds it, the network lingers in this
        // engine's list (Docker 20.10): wait for the removed services' containers to leave it first.
        const attached = Object.keys(((await docker().getNetwork(id).inspect()) as { Containers?: Record<string, unknown> }).Containers ?? {});
        if (attached.some((c) => !c.startsWith('lb-')) && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          continue;
        }
        await docker().getNetwork(id).remove();
        break;
      } catch (error) {
        if (isGone(error)) break;
        if (Date.now() > deadline) throw new Error(`cannot remove network ${id}: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  }
}
