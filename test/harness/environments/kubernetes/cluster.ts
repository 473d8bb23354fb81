/**
 * The local cluster of images/k8s-up.sh, for the Kubernetes tests: its kubeconfig, whether it answers and test
 * settings live with the environment (harness/environments/kubernetes/local-cluster.ts, which its conformance
 * hooks use too); here, what only tests do to it (pause a component, a rig of trials).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { KubernetesEnvironmentProvider } from '../../../../harness/environments/kubernetes/environment.js';
import type { KubernetesSettings } from '../../../../harness/environments/kubernetes/settings.js';
import type { EnvironmentSpec, WorkHandover } from '../../../../harness/environments/types.js';
import { GatewayServer } from '../../../../harness/gateway/server.js';
import type { ProviderContext } from '../../../../tools/providers/types.js';
import { ToolService } from '../../../../tools/service.js';
import { sandboxSpec } from '../conformance.js';

export { clusterClient, clusterSettings, KUBECONFIG, noClusterReason, NODE_CONTAINERD, podsNamed } from '../../../../harness/environments/kubernetes/local-cluster.js';
export const K8S_UP = 'images/k8s-up.sh';

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
