import { noOutput } from '../no-output.js';
import type { TrialEnvironment, TrialWork, TrialWorkResult, WorkHandover } from '../types.js';
import { PodFollower, type PodFate } from './pod-follower.js';
import type { PodWatch } from './pod-watch.js';
import type { KubernetesSettings } from './settings.js';

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
    const follower = new PodFollower(this.podName, this.createdAt, this.handover, this.provider, work);
    try {
      const outcome = await Promise.race([
        this.handover.result().then((r) => ({ r })),
        follower.fate.then((f) => ({ f })),
        this.removal.then(() => ({ f: 'the trial pod was removed before the trial ended' })),
      ]);
      const node = follower.pod?.spec?.nodeName ?? null;
      // The handover timed the result on the harness's clock; the node is the cluster's word where it has one.
      if ('r' in outcome) return { ...outcome.r, node: node ?? outcome.r.node };
      return await resultOfFate(outcome.f, node, performance.now() - (this.handover.fetchedAt ?? started), () => this.kill());
    } finally {
      follower.stop();
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

/**
 * The run's result when the pod's fate came first: the trial container's own end (scored), a timeout (the pod
 * killed), or an error. Not a method: a sandbox offers only id, run, kill and remove (the conformance suite).
 */
async function resultOfFate(fate: PodFate, node: string | null, agentMs: number, kill: () => Promise<void>): Promise<TrialWorkResult> {
  const nothing = noOutput(node, agentMs);
  if (typeof fate === 'object') {
    const { exitCode, reason } = fate.ended;
    return { ...nothing, exitCode, timedOut: false, ...(reason === 'OOMKilled' ? { fate: { oomAtOwnLimit: true } } : {}) };
  }
  if (fate === 'timeout') {
    await kill();
    return { ...nothing, exitCode: null, timedOut: true };
  }
  throw new Error(fate);
}
