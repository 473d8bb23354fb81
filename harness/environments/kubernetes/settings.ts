import type { z as Zod } from 'zod';

const LABEL_NAME = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const DNS_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * How a job reaches its Kubernetes cluster (`kubernetes:` in the job config). Built with the zod the config
 * schema passes in, so naming the environments (the CLI's help) loads no zod.
 */
export const kubernetesSettingsSchema = (z: typeof Zod) =>
  z.strictObject({
    kubeconfig: z.string().min(1).optional().describe('A kubeconfig file; without it KUBECONFIG, ~/.kube/config, or the pod\'s own account in a cluster (the client\'s usual order).'),
    context: z.string().min(1).optional().describe('A context of that kubeconfig; its current context without it.'),
    namespace: z.string().regex(DNS_NAME, 'a namespace name: lower-case letters, digits and -').default('default').describe('The namespace trial pods (and the gateway relay) are created in.'),
    node_selector: z.record(z.string().regex(LABEL_NAME, 'a label name'), z.string()).default({}).describe('Nodes a trial may run on: node label -> value.'),
    tolerations: z
      .array(
        z.strictObject({
          key: z.string().optional().describe('The taint key the toleration matches (any key with operator Exists and no key).'),
          operator: z.enum(['Exists', 'Equal']).optional().describe('Equal (the default): the taint\'s value must equal `value`; Exists: any value.'),
          value: z.string().optional().describe('The taint value matched with operator Equal.'),
          effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).optional().describe('The taint effect matched; every effect without it.'),
          toleration_seconds: z.number().int().nonnegative().optional().describe('With NoExecute: how long a trial pod stays on a node after the taint appears.'),
        }),
      )
      .default([])
      .describe('Taints of the nodes trial pods may run on anyway (Kubernetes tolerations, keys in snake_case).'),
    service_account: z.string().regex(DNS_NAME, 'a service account name').optional().describe('The service account trial pods run as (its token is never mounted).'),
    image_pull_secrets: z.array(z.string().regex(DNS_NAME, 'a secret name')).default([]).describe('Secrets the nodes use to pull the images from a private registry.'),
    registry: z.string().regex(/^[A-Za-z0-9.-]+(:\d+)?(\/[a-z0-9._/-]+)?$/, 'a registry address such as 127.0.0.1:5000').optional().describe('A registry every node pulls from (`host:port`): images are pushed there under their content-hash tags.'),
    node_containerd: z.string().regex(/^\//, 'an absolute path such as /run/aar-k8s/containerd.sock').optional().describe('Without a registry, on a cluster of this machine: the node\'s containerd socket, to load images into (`docker save | ctr import`).'),
    gateway_node: z.string().min(1).optional().describe('The node where the gateway\'s relay runs, beside the harness (it mounts the gateway\'s socket folder): this machine\'s hostname by default.'),
    pending_deadline_s: z.number().positive().default(300).describe('Seconds a trial pod may wait to be scheduled and started before its trial is an infrastructure error (retried).'),
    image_pull_deadline_s: z.number().nonnegative().default(30).describe('Seconds a trial pod may fail to pull its image (ErrImagePull, ImagePullBackOff) before its trial is an infrastructure error.'),
    node_lost_grace_s: z.number().nonnegative().default(0).describe('Seconds a node may stay not ready before its trials count as lost (infrastructure errors, run again).'),
    api_timeout_s: z.number().positive().default(20).describe('Seconds one request to the API server may take before it counts as not answering (the job then waits for it: engine_wait_s).'),
    request_fraction: z.number().positive().max(1).default(1).describe('Each pod\'s CPU and memory requests as a fraction of its limits (1: the scheduler reserves the limits; less packs more trials on a node).'),
    name_prefix: z.string().regex(/^[a-z][a-z0-9-]{0,20}$/, 'lower-case letters, digits and -, at most 21').default('aar-').describe('Prefix of every pod the job creates.'),
  });
export type KubernetesSettings = Zod.infer<ReturnType<typeof kubernetesSettingsSchema>>;

export const DEFAULT_KUBERNETES_SETTINGS: KubernetesSettings = {
  namespace: 'default',
  node_selector: {},
  tolerations: [],
  image_pull_secrets: [],
  pending_deadline_s: 300,
  image_pull_deadline_s: 30,
  node_lost_grace_s: 0,
  api_timeout_s: 20,
  request_fraction: 1,
  name_prefix: 'aar-',
};

/** How images reach the nodes, in a word for `aar plan`. */
export function imagePath(settings: KubernetesSettings): string {
  if (settings.registry) return `pushed to the registry ${settings.registry}, which the nodes pull from`;
  if (settings.node_containerd) return `loaded into the node's containerd (${settings.node_containerd}) from this machine's Docker engine`;
  return 'expected on the nodes already (no registry and no node_containerd set: nodes pull the tags themselves)';
}
