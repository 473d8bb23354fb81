import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { CoreV1Api, KubeConfig, type V1Pod } from '@kubernetes/client-node';
import type { EnvironmentProvider, EnvironmentSpec, SandboxInfo, TrialEnvironment } from '../types.js';
import { OnceByKey } from '../once-by-key.js';
import { buildGuardImage, ImageDistributor } from './images.js';
import { podFailure, pendingReason, type PodTimes } from './pod-fate.js';
import { PodWatch } from './pod-watch.js';
import { harnessLabelsOf, relayPod, ROLE_LABEL, selectorOf, trialPod } from './pods.js';
import { DEFAULT_KUBERNETES_SETTINGS, type KubernetesSettings } from './settings.js';
import { KubernetesTrial, type TrialPods } from './trial.js';

export const NO_CLUSTER_HINT = 'set kubernetes.kubeconfig or KUBECONFIG to a cluster (images/k8s-up.sh starts one on this machine)';

const statusOf = (error: unknown): number | undefined => (error as { code?: number; statusCode?: number }).code ?? (error as { statusCode?: number }).statusCode;
const isGone = (error: unknown): boolean => statusOf(error) === 404;

/** A promise that rejects after `ms` with what it was doing (the request itself may still finish later). */
function withTimeout<T>(promise: Promise<T>, ms: number, doing: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the Kubernetes API server did not answer within ${ms / 1000} s (${doing})`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

interface Relay {
  name: string;
  ip: string;
  port: number;
}

/**
 * Trials on Kubernetes: one pod per trial (never restarted), with the docker environment's memory and CPU
 * limits and capabilities, no privilege and no service account token, created, watched (one watch for the
 * job) and deleted through the API server. With `network: none` the pod's guard closes its network to all
 * but the job's relay, a pod beside the harness that forwards to the gateway's socket (pods.ts). Images
 * reach the nodes through a registry or straight into the node's containerd (images.ts).
 */
export class KubernetesEnvironmentProvider implements EnvironmentProvider, TrialPods {
  readonly name = 'kubernetes';
  readonly engineLabel = 'the Kubernetes API server';
  readonly kc = new KubeConfig();
  readonly core: CoreV1Api;
  readonly namespace: string;
  private readonly images: ImageDistributor;
  private readonly relays = new OnceByKey<Relay>();
  private readonly guards = new OnceByKey<string>();
  private podWatch: PodWatch | undefined;
  private readonly apiTimeoutMs: number;

  constructor(readonly settings: KubernetesSettings = DEFAULT_KUBERNETES_SETTINGS) {
    if (settings.kubeconfig) this.kc.loadFromFile(settings.kubeconfig);
    else this.kc.loadFromDefault();
    if (settings.context) this.kc.setCurrentContext(settings.context);
    this.core = this.kc.makeApiClient(CoreV1Api);
    this.namespace = settings.namespace;
    this.images = new ImageDistributor(settings);
    this.apiTimeoutMs = settings.api_timeout_s * 1000;
  }

  get watch(): PodWatch {
    return (this.podWatch ??= new PodWatch(this.kc, this.core, this.namespace, selectorOf({ 'aar-harness': '1' })));
  }

  private server(): string {
    return this.kc.getCurrentCluster()?.server ?? 'no cluster in the kubeconfig';
  }

  async check(): Promise<void> {
    if (!this.kc.getCurrentCluster()) throw new Error(`no Kubernetes cluster configured: ${NO_CLUSTER_HINT}`);
    try {
      // Listing pods is what a job needs anyway (a namespaced role may not read the namespace itself).
      await withTimeout(this.core.listNamespacedPod({ namespace: this.namespace, limit: 1 }), 10_000, `listing pods in ${this.namespace}`);
    } catch (error) {
      const status = statusOf(error);
      if (status === 401 || status === 403) throw new Error(`the kubeconfig's user may not list pods in namespace ${this.namespace} at ${this.server()} (HTTP ${status})`);
      throw new Error(`cannot reach the Kubernetes API server at ${this.server()}: ${(error as Error).message.split('\n')[0]} (${NO_CLUSTER_HINT})`);
    }
  }

  async answers(): Promise<boolean> {
    try {
      await withTimeout(this.core.listNamespacedPod({ namespace: this.namespace, limit: 1 }), 3_000, 'listing pods');
      return true;
    } catch {
      return false;
    }
  }

  /** True when the pod does not exist (false when it does, or the API server does not answer). */
  async podGone(name: string): Promise<boolean> {
    try {
      await withTimeout(this.core.readNamespacedPod({ name, namespace: this.namespace }), this.apiTimeoutMs, `reading pod ${name}`);
      return false;
    } catch (error) {
      return isGone(error);
    }
  }

  /** Deletes a pod at once (no grace: its processes are killed); a pod already gone is fine. */
  async deletePod(name: string): Promise<void> {
    try {
      await withTimeout(this.core.deleteNamespacedPod({ name, namespace: this.namespace, gracePeriodSeconds: 0 }), this.apiTimeoutMs, `deleting pod ${name}`);
    } catch (error) {
      if (!isGone(error)) throw error;
    }
  }

  /** Creates a pod; when the API server does not answer in time, the pod is deleted should the request still go through. */
  private async createPod(body: V1Pod): Promise<void> {
    const creating = this.core.createNamespacedPod({ namespace: this.namespace, body });
    try {
      await withTimeout(creating, this.apiTimeoutMs, `creating pod ${body.metadata!.name}`);
    } catch (error) {
      creating.then(() => this.deletePod(body.metadata!.name!)).catch(() => {});
      throw error;
    }
  }

  private guardImage(image: string): Promise<string> {
    return this.guards.get(image, () => buildGuardImage(image).then((tag) => this.images.imageFor(tag)));
  }

  private relayFor(spec: EnvironmentSpec, image: string): Promise<Relay> {
    return this.relays.get(`${spec.labels['aar.job_key'] ?? ''}\0${spec.gatewaySocketDir}`, () => this.startRelay(spec, image));
  }

  /** The node beside the harness: the setting, else the node named as this machine. */
  private async gatewayNode(): Promise<string> {
    const nodes = (await withTimeout(this.core.listNode(), this.apiTimeoutMs, 'listing nodes')).items.map((n) => n.metadata!.name!);
    const wanted = this.settings.gateway_node ?? os.hostname().toLowerCase();
    if (nodes.includes(wanted)) return wanted;
    throw new Error(
      `the gateway's relay runs on the node of this machine, and no node is named ${wanted} (nodes: ${nodes.join(', ') || 'none'}): set kubernetes.gateway_node`,
    );
  }

  private async startRelay(spec: EnvironmentSpec, image: string): Promise<Relay> {
    const jobKey = spec.labels['aar.job_key'] ?? 'nojob';
    const labels = { 'aar-harness': '1', 'aar.job_key': jobKey, [ROLE_LABEL]: 'relay' };
    const name = `${this.settings.name_prefix}relay-${jobKey.toLowerCase().replace(/[^a-z0-9-]/g, '-').slice(0, 40)}-${randomBytes(3).toString('hex')}`;
    await this.createPod(relayPod({ name, image, node: await this.gatewayNode(), spec, labels, settings: this.settings }));
    const deadline = Date.now() + this.settings.pending_deadline_s * 1000;
    for (;;) {
      const pod = await withTimeout(this.core.readNamespacedPod({ name, namespace: this.namespace }), this.apiTimeoutMs, `reading pod ${name}`);
      const ready = pod.status?.containerStatuses?.[0]?.ready;
      if (ready && pod.status?.podIP) return { name, ip: pod.status.podIP, port: spec.gatewayPort };
      const times: PodTimes = { createdAt: Date.now(), imageFailingSince: 0, nodeDownSince: null };
      const failure = podFailure(pod, undefined, Date.now(), times, { pendingMs: Infinity, imagePullMs: 0, nodeLostMs: Infinity });
      if (failure || Date.now() > deadline) {
        await this.deletePod(name).catch(() => {});
        throw new Error(`the gateway's relay pod did not start: ${failure ?? pendingReason(pod)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  async start(spec: EnvironmentSpec): Promise<TrialEnvironment> {
    const image = await this.images.imageFor(spec.image);
    const guardImage = spec.network === 'none' ? await this.guardImage(spec.image) : undefined;
    const relay = await this.relayFor(spec, image);
    const name = `${this.settings.name_prefix}trial-${randomBytes(6).toString('hex')}`;
    const createdAt = Date.now();
    await this.createPod(trialPod({ name, spec, image, guardImage, relay, settings: this.settings, requestFraction: this.settings.request_fraction }));
    return new KubernetesTrial(name, spec.handover, this, createdAt);
  }

  private async podsByLabels(labels: Record<string, string>): Promise<V1Pod[]> {
    const list = await withTimeout(this.core.listNamespacedPod({ namespace: this.namespace, labelSelector: selectorOf(labels) }), this.apiTimeoutMs, 'listing pods');
    return list.items;
  }

  /** The trial pods whose labels include all of these (not the jobs' relays), each in its phase. */
  async listByLabels(labels: Record<string, string>): Promise<SandboxInfo[]> {
    const trials = (await this.podsByLabels(labels)).filter((p) => p.metadata?.labels?.[ROLE_LABEL] !== 'relay');
    return trials.map((p) => ({ id: p.metadata!.name!, labels: harnessLabelsOf(p), state: (p.metadata?.deletionTimestamp ? 'terminating' : p.status?.phase ?? 'unknown').toLowerCase() }));
  }

  /** Deletes the pods (trials and relays) whose labels include all of these; returns how many trials. */
  async removeByLabels(labels: Record<string, string>): Promise<number> {
    const pods = await this.podsByLabels(labels);
    await Promise.all(pods.map((p) => this.deletePod(p.metadata!.name!)));
    const names = new Set(pods.map((p) => p.metadata!.name!));
    // A relay removed here is made again by the next start; the others stay in use.
    for (const [key, pending] of this.relays.entries()) {
      const made = await pending.catch(() => undefined);
      if (!made || names.has(made.name)) this.relays.delete(key);
    }
    return pods.filter((p) => p.metadata?.labels?.[ROLE_LABEL] !== 'relay').length;
  }

  /** Removes the relays made for jobs and ends the watch. */
  async close(): Promise<void> {
    const made = await Promise.allSettled(this.relays.entries().map(([, pending]) => pending));
    this.relays.clear();
    this.podWatch?.stop();
    this.podWatch = undefined;
    await Promise.all(made.flatMap((m) => (m.status === 'fulfilled' ? [this.deletePod(m.value.name).catch(() => {})] : [])));
  }
}
