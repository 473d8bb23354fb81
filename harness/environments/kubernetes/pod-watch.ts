import { Watch, type CoreV1Api, type KubeConfig, type V1Node, type V1Pod } from '@kubernetes/client-node';

/** How often the nodes of watched pods are read (one request for all of them). */
const NODE_POLL_MS = 2_000;
/** How long to wait before listing and watching again after the API server went away. */
const RETRY_MS = 1_000;
/** A list that took this long met an API server that was away (a stopped one holds requests, not refuses them). */
const SLOW_ANSWER_MS = 3_000;

type Listener = (pod: V1Pod | null) => void;

/**
 * One watch of a namespace's harness pods for the whole job (not a request per trial): each trial listens
 * to its pod by name and hears every change, and `null` when the pod is gone. When the API server goes
 * away the watch lists and watches again every second; meanwhile `connected` is false and trials keep
 * running (their results come through the gateway, not the API server).
 */
export class PodWatch {
  private readonly listeners = new Map<string, Listener>();
  private readonly pods = new Map<string, V1Pod>();
  private readonly nodes = new Map<string, V1Node>();
  private abort: AbortController | null = null;
  private stopped = false;
  private started = false;
  private nodeTimer: NodeJS.Timeout | undefined;
  /** When the nodes were last read (they are read only while some pod is followed). */
  private nodesReadAt = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  /** True while the watch is open (the API server answered its last list). */
  connected = false;
  /** When the API server answered again after a request to it failed or was held (null: it has not been away). */
  apiBackAt: number | null = null;
  private away = false;

  constructor(
    private readonly kc: KubeConfig,
    private readonly core: CoreV1Api,
    private readonly namespace: string,
    private readonly labelSelector: string,
  ) {}

  /** Follows a pod by name: the listener hears its current state (when known) and each change. */
  listen(name: string, listener: Listener): () => void {
    // Nodes read before anyone listened may be long out of date: forgotten (unknown nodes count as ready) and read again.
    if (this.listeners.size === 0 && Date.now() - this.nodesReadAt > 2 * NODE_POLL_MS) {
      this.nodes.clear();
      if (this.started) void this.readNodes();
    }
    this.listeners.set(name, listener);
    if (!this.started) this.start();
    const known = this.pods.get(name);
    if (known) listener(known);
    return () => this.listeners.delete(name);
  }

  node(name: string | undefined): V1Node | undefined {
    return name ? this.nodes.get(name) : undefined;
  }

  private start(): void {
    this.started = true;
    void this.connect();
    const poll = async (): Promise<void> => {
      if (this.stopped) return;
      if (this.listeners.size) await this.readNodes();
      this.nodeTimer = setTimeout(() => void poll(), NODE_POLL_MS);
      this.nodeTimer.unref();
    };
    void poll();
  }

  private async readNodes(): Promise<void> {
    try {
      const asked = Date.now();
      const list = await this.core.listNode();
      this.answered(asked);
      this.nodesReadAt = Date.now();
      this.nodes.clear();
      for (const n of list.items) if (n.metadata?.name) this.nodes.set(n.metadata.name, n);
    } catch {
      // the API server is away: the nodes stay as last seen
      this.away = true;
    }
  }

  private answered(asked: number): void {
    const now = Date.now();
    if (this.away || now - asked > SLOW_ANSWER_MS) this.apiBackAt = now;
    this.away = false;
  }

  private publish(name: string, pod: V1Pod | null): void {
    if (pod) this.pods.set(name, pod);
    else this.pods.delete(name);
    this.listeners.get(name)?.(pod);
  }

  /** Lists the pods (each listener hears its pod, or that it is gone), then watches from that version on. */
  private async connect(): Promise<void> {
    if (this.stopped) return;
    try {
      const asked = Date.now();
      const list = await this.core.listNamespacedPod({ namespace: this.namespace, labelSelector: this.labelSelector });
      this.answered(asked);
      const seen = new Set<string>();
      for (const pod of list.items) {
        const name = pod.metadata!.name!;
        seen.add(name);
        this.publish(name, pod);
      }
      for (const name of [...this.pods.keys(), ...this.listeners.keys()]) if (!seen.has(name)) this.publish(name, null);
      this.abort = await new Watch(this.kc).watch(
        `/api/v1/namespaces/${this.namespace}/pods`,
        { labelSelector: this.labelSelector, resourceVersion: list.metadata?.resourceVersion, allowWatchBookmarks: true },
        (type: string, pod: V1Pod) => {
          const name = pod?.metadata?.name;
          if (!name || type === 'BOOKMARK') return;
          this.publish(name, type === 'DELETED' ? null : pod);
        },
        (err: unknown) => {
          if (err) this.away = true;
          this.reconnect();
        },
      );
      this.connected = true;
    } catch {
      this.away = true;
      this.reconnect();
    }
  }

  private reconnect(): void {
    this.connected = false;
    this.abort = null;
    if (this.stopped) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => void this.connect(), RETRY_MS);
    this.retryTimer.unref();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.nodeTimer);
    clearTimeout(this.retryTimer);
    this.abort?.abort();
    this.listeners.clear();
  }
}
