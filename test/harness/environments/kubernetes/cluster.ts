/**
 * The local cluster of images/k8s-up.sh, for the Kubernetes tests: its kubeconfig (AAR_K8S_KUBECONFIG, else
 * where the script writes it), whether it answers, and test settings (images loaded into its containerd,
 * small requests so many test pods fit on one node, a name prefix of the test's own).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { KubeConfig, CoreV1Api } from '@kubernetes/client-node';
import { KubernetesEnvironmentProvider } from '../../../../harness/environments/kubernetes/environment.js';
import { DEFAULT_KUBERNETES_SETTINGS, type KubernetesSettings } from '../../../../harness/environments/kubernetes/settings.js';
import type { EnvironmentSpec, WorkHandover } from '../../../../harness/environments/types.js';
import { GatewayServer } from '../../../../harness/gateway/server.js';
import type { ProviderContext } from '../../../../tools/providers/types.js';
import { ToolService } from '../../../../tools/service.js';
import { sandboxSpec } from '../conformance.js';

export const KUBECONFIG = process.env.AAR_K8S_KUBECONFIG ?? '/var/lib/aar-k8s/kubeconfig';
export const NODE_CONTAINERD = process.env.AAR_K8S_CONTAINERD ?? '/run/aar-k8s/containerd.sock';
export const K8S_UP = 'images/k8s-up.sh';

/** Null when the local cluster answers, else the one-line reason the Kubernetes tests skip. */
export async function noClusterReason(): Promise<string | null> {
  if (!existsSync(KUBECONFIG)) return `no local cluster (${KUBECONFIG} missing): run bash images/k8s-up.sh (.ci/run does)`;
  if (!existsSync(NODE_CONTAINERD)) return `the local cluster's containerd socket ${NODE_CONTAINERD} is missing: run bash images/k8s-up.sh`;
  const kc = new KubeConfig();
  kc.loadFromFile(KUBECONFIG);
  const core = kc.makeApiClient(CoreV1Api);
  const answered = await Promise.race([
    core.listNode().then((l) => l.items.some((n) => n.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))),
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

/** A client of the local cluster, for tests that look at it (or hurt it) from outside the harness. */
export function clusterClient(): CoreV1Api {
  const kc = new KubeConfig();
  kc.loadFromFile(KUBECONFIG);
  return kc.makeApiClient(CoreV1Api);
}

/** Pods whose name starts with the prefix (tests name theirs aar-test-...). */
export async function podsNamed(prefix: string): Promise<string[]> {
  const list = await clusterClient().listNamespacedPod({ namespace: 'default' });
  return list.items.map((p) => p.metadata!.name!).filter((n) => n.startsWith(prefix));
}

/** SIGSTOP / SIGCONT of one of the cluster's processes (kubelet, kube-apiserver), through images/k8s-up.sh. */
export const pauseComponent = (name: string) => execa('bash', [K8S_UP, 'pause', name]);
export const resumeComponent = (name: string) => execa('bash', [K8S_UP, 'resume', name]);

/**
 * A gateway on a socket and a Kubernetes provider for tests that drive trials one by one: `start` registers a
 * trial and starts its pod (labelled with the rig's job key), `run` runs work in it to the end.
 */
export async function trialRig(settings: KubernetesSettings, jobKey: string, image: string) {
  const provider = new KubernetesEnvironmentProvider(settings);
  await provider.check();
  const gateway = new GatewayServer({ tools: new ToolService({ mode: 'live', providers: {} as ProviderContext }) });
  const socketDir = mkdtempSync(path.join(os.tmpdir(), 'aar-k8s-rig-'));
  await gateway.listenSocket(path.join(socketDir, 'gateway.sock'));
  const labels = { 'aar-harness': '1', 'aar.job_key': jobKey, 'aar.job': jobKey };
  return {
    provider,
    gateway,
    socketDir,
    async start(name: string, extra: Partial<EnvironmentSpec> = {}) {
      const trial = gateway.trials.register({ trialId: name, toolLogPath: path.join(socketDir, `${name}.jsonl`) });
      const sandbox = await provider.start({ ...sandboxSpec({ image, labels: { ...labels, 'aar.trial': name }, token: trial.token, socketDir, handover: trial.handover }), ...extra });
      return { sandbox, trial, done: () => gateway.trials.unregister(trial.token) };
    },
    async close() {
      await provider.removeByLabels({ 'aar.job_key': jobKey });
      await provider.close();
      await gateway.close();
      rmSync(socketDir, { recursive: true, force: true });
    },
  };
}

/** Resolves once the trial's work was fetched by its pod (fails the test after `ms`). */
export async function untilFetched(handover: WorkHandover, ms = 120_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!handover.fetched && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if (!handover.fetched) throw new Error('the pod did not fetch its work');
}
