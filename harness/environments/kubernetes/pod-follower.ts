import type { V1Pod } from '@kubernetes/client-node';
import type { TrialWork, WorkHandover } from '../types.js';
import { podFailure, pendingReason, trialEnded, type FateLimits, type PodTimes } from './pod-fate.js';
import type { PodWatch } from './pod-watch.js';
import type { KubernetesSettings } from './settings.js';

/** How long a running trial pod may take to fetch its work from the gateway. */
const FETCH_LIMIT_MS = 60_000;
/** How long past its timeout a trial may take to hand back its result before its pod is removed. */
const RESULT_GRACE_MS = 60_000;
const TICK_MS = 1_000;
/** How long the result may trail a trial container that ended (it posts before it exits). */
const RESULT_AFTER_END_MS = 5_000;

/** Why a trial's run ends without a result: a reason (an infrastructure error), 'timeout', or the trial container's own end. */
export type PodFate = string | { ended: { exitCode: number; reason: string } };

/** What a follower needs of its trial's provider (trial.ts's TrialPods). */
export interface FollowedPods {
  readonly settings: KubernetesSettings;
  readonly watch: PodWatch;
  podGone(name: string): Promise<boolean>;
}

/**
 * Follows one trial's pod on the job's watch, once a second from the start until `stop()`: `fate` settles
 * with the first reason the run cannot end with a result (trial.ts says which), and `pod` holds the pod as
 * last heard (null when gone, undefined before it was heard of).
 */
export class PodFollower {
  pod: V1Pod | null | undefined;
  readonly fate: Promise<PodFate>;
  private readonly limits: FateLimits;
  private readonly times: PodTimes;
  private endedAt: number | null = null;
  private runningSince: number | null = null;
  private fetchedAt: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private unlisten = (): void => {};

  constructor(
    private readonly podName: string,
    private readonly createdAt: number,
    private readonly handover: WorkHandover,
    private readonly provider: FollowedPods,
    private readonly work: TrialWork,
  ) {
    const { settings, watch } = provider;
    this.limits = { pendingMs: settings.pending_deadline_s * 1000, imagePullMs: settings.image_pull_deadline_s * 1000, nodeLostMs: settings.node_lost_grace_s * 1000 };
    this.times = { createdAt, imageFailingSince: null, nodeDownSince: null };
    this.fate = new Promise<PodFate>((resolve) => {
      const tick = (): void => {
        void this.check()
          .then((fate) => {
            if (fate !== null) resolve(fate);
          })
          .finally(() => {
            if (!this.stopped) this.timer = setTimeout(tick, TICK_MS);
          });
      };
      this.unlisten = watch.listen(podName, (p) => {
        this.pod = p;
      });
      tick();
    });
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    this.unlisten();
  }

  /** The pod's fate as of now, or null while it may still hand back its result. */
  private async check(): Promise<PodFate | null> {
    const { settings, watch } = this.provider;
    const pod = this.pod;
    const now = Date.now();
    if (pod === null) {
      // Gone from the list: asked once more directly (a list made just before the pod was created misses it).
      if (await this.provider.podGone(this.podName)) return 'the trial pod was deleted before the trial ended (evicted, drained or removed from outside the harness)';
      return null;
    }
    if (pod) {
      this.times.apiBackAt = watch.apiBackAt;
      const failure = podFailure(pod, watch.node(pod.spec?.nodeName), now, this.times, this.limits);
      if (failure) return failure;
      if (pod.status?.phase === 'Running') this.runningSince ??= now;
    }
    if (this.handover.fetched) this.fetchedAt ??= now;
    const { runningSince, fetchedAt } = this;
    const ended = pod ? trialEnded(pod) : null;
    if (ended && now - (this.endedAt ??= now) > RESULT_AFTER_END_MS) {
      // Ended by itself without handing back its result: after its work was fetched, that is the agent's doing
      // (it killed its runner, or ran out of its memory) and is scored; before, the agent never ran.
      if (fetchedAt !== null) return { ended };
      return `the trial container on ${pod?.spec?.nodeName ?? 'its node'} ended (${ended.reason} ${ended.exitCode}) before it fetched its work`;
    }
    if (fetchedAt !== null && now - fetchedAt > this.work.timeoutMs + RESULT_GRACE_MS) {
      return watch.connected ? 'timeout' : 'the Kubernetes API server did not answer while the trial overran its timeout';
    }
    if (runningSince !== null && fetchedAt === null && now - runningSince > FETCH_LIMIT_MS) {
      return `the trial pod on ${pod?.spec?.nodeName ?? 'its node'} did not reach the gateway within ${FETCH_LIMIT_MS / 1000} s`;
    }
    if (fetchedAt === null && now - this.createdAt > this.limits.pendingMs + FETCH_LIMIT_MS) {
      return `the trial pod did not start within ${settings.pending_deadline_s} s (${pod ? pendingReason(pod) : 'the API server did not answer'})`;
    }
    return null;
  }
}
