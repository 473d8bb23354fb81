import type { z as Zod } from 'zod';

const LABEL_NAME = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const DNS_NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * How a job reaches its Kubernetes cluster (`kubernetes:` in the job config). Built with the zod the config
 * schema passes in, so naming the environments (the CLI's help) loads no zod.
 */
export const kubernetesSettingsSchema = (z: typeof Zod) =>
  z.strictObject({
    /** A kubeconfig file; without it KUBECONFIG, ~/.kube/config, or the pod's own account in a cluster (the client's usual order). */
    kubeconfig: z.string().min(1).optional(),
    /** A context of that kubeconfig; its current context without it. */
    context: z.string().min(1).optional(),
    namespace: z.string().regex(DNS_NAME, 'a namespace name: lower-case letters, digits and -').default('default'),
    /** Nodes a trial may run on: node label -> value. */
    node_selector: z.record(z.string().regex(LABEL_NAME, 'a label name'), z.string()).default({}),
    tolerations: z
      .array(
        z.strictObject({
          key: z.string().optional(),
          operator: z.enum(['Exists', 'Equal']).optional(),
          value: z.string().optional(),
          effect: z.enum(['NoSchedule', 'PreferNoSchedule', 'NoExecute']).optional(),
          toleration_seconds: z.number().int().nonnegative().optional(),
        }),
      )
      .default([]),
    /** The service account trial pods run as (its token is never mounted). */
    service_account: z.string().regex(DNS_NAME, 'a service account name').optional(),
    /** Secrets the nodes use to pull the images from a private registry. */
    image_pull_secrets: z.array(z.string().regex(DNS_NAME, 'a secret name')).default([]),
    /** A registry every node pulls from (`host:port`): images are pushed there under their content-hash tags. */
    registry: z.string().regex(/^[A-Za-z0-9.-]+(:\d+)?(\/[a-z0-9._/-]+)?$/, 'a registry address such as 127.0.0.1:5000').optional(),
    /** Without a registry, on a cluster of this machine: the node's containerd socket, to load images into (`docker save | ctr import`). */
    node_containerd: z.string().regex(/^\//, 'an absolute path such as /run/aar-k8s/containerd.sock').optional(),
    /** The node where the gateway's relay runs, beside the harness (it mounts the gateway's socket folder): this machine's hostname by default. */
    gateway_node: z.string().min(1).optional(),
    /** Seconds a trial pod may wait to be scheduled and started before its trial is an infrastructure error (retried). */
    pending_deadline_s: z.number().positive().default(300),
    /** Seconds a trial pod may fail to pull its image (ErrImagePull, ImagePullBackOff) before its trial is an infrastructure error. */
    image_pull_deadline_s: z.number().nonnegative().default(30),
    /** Seconds a node may stay not ready before its trials count as lost (infrastructure errors, run again). */
    node_lost_grace_s: z.number().nonnegative().default(0),
    /** Seconds one request to the API server may take before it counts as not answering (the job then waits for it: engine_wait_s). */
    api_timeout_s: z.number().positive().default(20),
    /** Each pod's CPU and memory requests as a fraction of its limits (1: the scheduler reserves the limits; less packs more trials on a node). */
    request_fraction: z.number().positive().max(1).default(1),
    /** Prefix of every pod the job creates. */
    name_prefix: z.string().regex(/^[a-z][a-z0-9-]{0,20}$/, 'lower-case letters, digits and -, at most 21').default('aar-'),
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
