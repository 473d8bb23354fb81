import { execa } from 'execa';
import { docker } from '../../../common/docker.js';
import { buildRecipe, type ImageRecipe } from '../../../images/build.js';
import { pushToRegistry } from '../swarm/images.js';
import { OnceByKey } from '../once-by-key.js';
import type { KubernetesSettings } from './settings.js';

/**
 * The guard's image: the trial image with iptables and iproute2 (pods.ts guardScript), built once per trial
 * image, like an agent's layer.
 */
export function guardRecipe(baseTag: string): ImageRecipe {
  const dockerfile = [
    '# The network guard of a Kubernetes trial pod: iptables and ip on the trial image (harness/environments/kubernetes/pods.ts).',
    'ARG BASE',
    'FROM ${BASE}',
    'RUN apt-get update && apt-get install -y --no-install-recommends iptables iproute2 && rm -rf /var/lib/apt/lists/* && iptables --version && ip -V',
    '',
  ].join('\n');
  return { name: 'k8s-guard', dockerfile, files: {}, buildArgs: { BASE: baseTag } };
}

export const buildGuardImage = (baseTag: string): Promise<string> => buildRecipe(guardRecipe(baseTag));

/** The containerd client's arguments for the node's socket, in the namespace the kubelet uses. */
const ctr = (socket: string, ...args: string[]) => ['--address', socket, '--namespace', 'k8s.io', ...args];

/** The name containerd keeps an image under (what the kubelet asks for `aar-base:abc`). */
export const containerdName = (tag: string): string => (tag.includes('/') ? tag : `docker.io/library/${tag}`);

/** `docker save | ctr import` of one image into a node's containerd, unless it has it. */
async function loadIntoContainerd(tag: string, socket: string): Promise<void> {
  const listed = await execa('ctr', ctr(socket, 'images', 'ls', '-q', `name==${containerdName(tag)}`));
  if (listed.stdout.trim()) return;
  const saved = await docker().getImage(tag).get();
  await execa('ctr', ctr(socket, 'images', 'import', '--all-platforms', '-'), { input: saved as unknown as NodeJS.ReadableStream as never });
}

/**
 * Images on the nodes: pushed to the job's registry (nodes pull them), or loaded into the node's containerd
 * for a cluster on this machine, or left to the nodes. Returns the reference pods use.
 */
export class ImageDistributor {
  private readonly ready = new OnceByKey<string>();

  constructor(private readonly settings: KubernetesSettings) {}

  imageFor(tag: string): Promise<string> {
    return this.ready.get(tag, () => this.distribute(tag));
  }

  private async distribute(tag: string): Promise<string> {
    if (this.settings.registry) return pushToRegistry(tag, this.settings.registry);
    if (this.settings.node_containerd) {
      try {
        await loadIntoContainerd(tag, this.settings.node_containerd);
      } catch (error) {
        throw new Error(`cannot load ${tag} into the node's containerd (${this.settings.node_containerd}): ${(error as Error).message.split('\n')[0]}`);
      }
    }
    return tag;
  }
}
