import type { V1Pod } from '@kubernetes/client-node';
import type { TrialEnvironment, TrialWork, TrialWorkResult, WorkHandover } from '../types.js';
import { podFailure, pendingReason, trialEnded, type PodTimes } from './pod-fate.js';
import type { PodWatch } from './pod-watch.js';
import type { KubernetesSettings } from './settings.js';

/** How long a running trial pod may take to fetch its work from the gateway. */
const FETCH_LIMIT_MS = 60_000;
/** How long past its timeout a trial may take to hand back its result before its pod is removed. */
const RESULT_GRACE_MS = 60_000;
const TICK_MS = 1_000;
/** How long the result may trail a trial container that ended (it posts before it exits). */
const RESULT_AFTER_END_MS = 5_000;

/** What a trial needs of its provider: the settings, the job's watch, and the pod's reading and deletion. */
export interface TrialPods {
  readonly settings: KubernetesSettings;
  readonly watch: PodWatch;
  /** True when the pod does not exist (false when it does, or the API server does not answer). */
  podGone(name: string): Promise<boolean>;
  deletePod(name: string): Promise<void>;
}

/** One trial's pod, created by the provider (environment.ts): its run is followed on the job's watch. */
export class KubernetesTrial implements TrialEnvironment {
  private removed = false;
  private markRemoved!: () => void;
  private readonly removal = new Promise<void>((resolve) => (this.markRemoved = resolve));

  constructor(
    private readonly podName: string,
    private readonly handover: WorkHandover,
    private readonly provider: TrialPods,
    private readonly createdAt: number,
  ) {}

  get id(): string {
    return this.podName;
  }

  /**
   * The work goes to the gateway; the pod's `tools --trial` fetches it through the relay, runs it under the
   * timeout and posts the result. Meanwhile the pod is followed on the job's one watch: a pod deleted or
   * evicted, without its image, pending past the deadline, on a lost node, or ended before it fetched its work
   * ends the run with an error (an infrastructure error to the trial runner, retried). A trial container that
   * ended by itself after fetching its work, without a result (its agent killed the runner, or ran out of its
   * memory: OOMKilled), ends the run as that exit, scored as on Docker. A pod that outlives its timeout by a
   * minute is removed and the trial counted as timed out.
   */
  async run(work: TrialWork): Promise<TrialWorkResult> {
    this.handover.offer(work);
    const started = performance.now();
    const { settings, watch } = this.provider;
    const limits = { pendingMs: settings.pending_deadline_s * 1000, imagePullMs: settings.image_pull_deadline_s * 1000, nodeLostMs: settings.node_lost_grace_s * 1000 };
    const times: PodTimes = { createdAt: this.createdAt, imageFailingSince: null, nodeDownSince: null };
    let endedAt: number | null = null;
    let pod: V1Pod | null | undefined;
    let runningSince: number | null = null;
    let fetchedAt: number | null = null;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    let unlisten = (): void => {};
    const failed = new Promise<string | { ended: { exitCode: number; reason: string } }>((resolve) => {
      const check = async (): Promise<void> => {
        const now = Date.now();
        if (pod === null) {
          // Gone from the list: asked once more directly (a list made just before the pod was created misses it).
          if (await this.provider.podGone(this.podName)) return resolve('the trial pod was deleted before the trial ended (evicted, drained or removed from outside the harness)');
          return;
        }
        if (pod) {
          const failure = podFailure(pod, watch.node(pod.spec?.nodeName), now, times, limits);
          if (failure) return resolve(failure);
          if (pod.status?.phase === 'Running') runningSince ??= now;
        }
        if (this.handover.fetched) fetchedAt ??= now;
        const ended = pod ? trialEnded(pod) : null;
        if (ended && now - (endedAt ??= now) > RESULT_AFTER_END_MS) {
          // Ended by itself without handing back its result: after its work was fetched, that is the agent's doing
          // (it killed its runner, or ran out of its memory) and is scored; before, the agent never ran.
          if (fetchedAt !== null) return resolve({ ended });
          return resolve(`the trial container on ${pod?.spec?.nodeName ?? 'its node'} ended (${ended.reason} ${ended.exitCode}) before it fetched its work`);
        }
        if (fetchedAt !== null && now - fetchedAt > work.timeoutMs + RESULT_GRACE_MS) {
          return resolve(watch.connected ? 'timeout' : 'the Kubernetes API server did not answer while the trial overran its timeout');
        }
        if (runningSince !== null && fetchedAt === null && now - runningSince > FETCH_LIMIT_MS) {
          return resolve(`the trial pod on ${pod?.spec?.nodeName ?? 'its node'} did not reach the gateway within ${FETCH_LIMIT_MS / 1000} s`);
        }
        if (fetchedAt === null && now - this.createdAt > limits.pendingMs + FETCH_LIMIT_MS) {
          return resolve(`the trial pod did not start within ${settings.pending_deadline_s} s (${pod ? pendingReason(pod) : 'the API server did not answer'})`);
        }
      };
      const tick = (): void => {
        void check().finally(() => {
          if (!stopped) timer = setTimeout(tick, TICK_MS);
        });
      };
      unlisten = watch.listen(this.podName, (p) => {
        pod = p;
      });
      tick();
    });
    try {
      const outcome = await Promise.race([
        this.handover.result().then((r) => ({ r })),
        failed.then((f) => ({ f })),
        this.removal.then(() => ({ f: 'the trial pod was removed before the trial ended' })),
      ]);
      const node = pod?.spec?.nodeName ?? null;
      // The handover timed the result on the harness's clock; the node is the cluster's word where it has one.
      if ('r' in outcome) return { ...outcome.r, node: node ?? outcome.r.node };
      const empty = Buffer.alloc(0);
      const agentMs = performance.now() - (this.handover.fetchedAt ?? started);
      const nothing = { stdout: empty, stderr: empty, files: {}, dirs: {}, node, cuts: [], durationMs: agentMs };
      if (typeof outcome.f === 'object') {
        const { exitCode, reason } = outcome.f.ended;
        return { ...nothing, exitCode, timedOut: false, ...(reason === 'OOMKilled' ? { fate: { oomAtOwnLimit: true } } : {}) };
      }
      if (outcome.f === 'timeout') {
        await this.kill();
        return { ...nothing, exitCode: null, timedOut: true };
      }
      throw new Error(outcome.f);
    } finally {
      stopped = true;
      clearTimeout(timer);
      unlisten();
    }
  }

  /** Deleting the pod stops its containers wherever it runs (no file comes back from a killed trial). */
  async kill(): Promise<void> {
    await this.remove();
  }

  async remove(): Promise<void> {
    if (this.removed) return;
    this.removed = true;
    this.markRemoved();
    await this.provider.deletePod(this.podName);
  }
}
