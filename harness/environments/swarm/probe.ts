import { docker, dockerAvailable } from '../../../common/docker.js';

/** True when this engine is an active swarm manager (.ci/run makes it one: docker swarm init --advertise-addr 127.0.0.1). */
export async function swarmManagerHere(): Promise<boolean> {
  if (!(await dockerAvailable())) return false;
  const info = (await docker().info()) as { Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean } };
  return info.Swarm?.LocalNodeState === 'active' && info.Swarm.ControlAvailable === true;
}

/** Services and networks named with a prefix that are still there (tests name theirs aar-test-…). */
export async function leftovers(prefix: string): Promise<string[]> {
  const services = (await docker().listServices()) as unknown as { Spec?: { Name?: string } }[];
  const networks = (await docker().listNetworks()) as { Name: string }[];
  return [...services.map((s) => s.Spec?.Name ?? ''), ...networks.map((n) => n.Name)].filter((n) => n.startsWith(prefix));
}

/** Leftovers once the engine has caught up: a removed network can stay listed for a few seconds. */
export async function settledLeftovers(prefix: string, waitMs = 30_000): Promise<string[]> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const left = await leftovers(prefix);
    if (!left.length || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}
