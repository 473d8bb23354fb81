/**
 * The local cluster images/k8s-up.sh makes beside Docker, where the kubernetes environment's conformance suite
 * and tests run: its kubeconfig (AAR_K8S_KUBECONFIG, else where the script writes it), whether it answers, and
 * settings for a suite (images loaded into its containerd, small requests so many pods fit on one node, a
 * name prefix of the suite's own).
 */
import { existsSync } from 'node:fs';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { DEFAULT_KUBERNETES_SETTINGS, type KubernetesSettings } from './settings.js';

export const KUBECONFIG = process.env.AAR_K8S_KUBECONFIG ?? '/var/lib/aar-k8s/kubeconfig';
export const NODE_CONTAINERD = process.env.AAR_K8S_CONTAINERD ?? '/run/aar-k8s/containerd.sock';

/** Null when the local cluster answers, else the one-line reason why not. */
export async function noClusterReason(): Promise<string | null> {
  if (!existsSync(KUBECONFIG)) return `no local cluster (${KUBECONFIG} missing): run bash images/k8s-up.sh (.ci/run does)`;
  if (!existsSync(NODE_CONTAINERD)) return `the local cluster's containerd socket ${NODE_CONTAINERD} is missing: run bash images/k8s-up.sh`;
  const answered = await Promise.race([
    clusterClient()
      .listNode()
      .then((l) => l.items.some((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), 5_000).unref()),
  ]).catch(() => false);
  return answered ? null : `the local cluster (${KUBECONFIG}) does not answer or has no ready node: run bash images/k8s-up.sh`;
}

export const clusterSettings = (prefix: string, over: Partial<KubernetesSettings> = {}): KubernetesSettings => ({
  ...DEFAULT_KUBERNETES_SETTINGS,
  kubeconfig: KUBECONFIG,
  node_containerd: NODE_CONTAINERD,
  request_fraction: 0.02,
  name_prefix: prefix,
  ...over,
});

/** A client of the local cluster, to look at it from outside the harness. */
export function clusterClient(): CoreV1Api {
  const kc = new KubeConfig();
  kc.loadFromFile(KUBECONFIG);
  return kc.makeApiClient(CoreV1Api);
}

/** Pods whose name starts with the prefix. */
export async function podsNamed(prefix: string): Promise<string[]> {
  const list = await clusterClient().listNamespacedPod({ namespace: 'default' });
  return list.items.map((p) => p.metadata!.name!).filter((n) => n.startsWith(prefix));
}
