import type { V1Node, V1Pod } from '@kubernetes/client-node';

/** Waiting reasons that mean the image will not come (the kubelet keeps trying, but nothing changes by itself). */
const IMAGE_FAILURES = new Set(['ErrImagePull', 'ImagePullBackOff', 'InvalidImageName', 'ErrImageNeverPull', 'RegistryUnavailable']);
/** Waiting reasons of a container that cannot be made at all. */
const CONFIG_FAILURES = new Set(['CreateContainerConfigError', 'CreateContainerError', 'RunContainerError']);

/** What a trial's watch knows of its pod so far (times on the harness's clock, Date.now()). */
export interface PodTimes {
  createdAt: number;
  /** When its image was first seen failing to come. */
  imageFailingSince: number | null;
  /** When its node was first seen not ready. */
  nodeDownSince: number | null;
  /** When the API server answered again after the harness saw it away (null: not away since the job began). */
  apiBackAt?: number | null;
}

/**
 * After the API server was away, its node controller may mark a node whose kubelet could not post meanwhile
 * as unknown (NodeStatusUnknown) until the kubelet posts again (every 10 s by default): for this long after
 * the API server is back, an unknown node is not yet counted as down.
 */
export const NODE_CATCH_UP_MS = 40_000;

export interface FateLimits {
  pendingMs: number;
  imagePullMs: number;
  nodeLostMs: number;
}

/** How the trial container ended, once it has: its exit status and the runtime's reason (Error, Completed, OOMKilled). */
export function trialEnded(pod: V1Pod): { exitCode: number; reason: string } | null {
  const ended = pod.status?.containerStatuses?.find((s) => s.name === 'trial')?.state?.terminated;
  return ended ? { exitCode: ended.exitCode, reason: ended.reason ?? 'Error' } : null;
}

const statuses = (pod: V1Pod) => [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];

const readyCondition = (node: V1Node | undefined) => node?.status?.conditions?.find((c) => c.type === 'Ready');

/** Whether the node answers (its Ready condition is True); unknown nodes count as ready. */
export function nodeReady(node: V1Node | undefined): boolean {
  const ready = readyCondition(node);
  return !ready || ready.status === 'True';
}

/**
 * Why a trial's pod will not hand back a result for reasons that are not the agent's (an infrastructure error
 * of the trial), or null while it may still: deleted or evicted, its image not coming, its container not
 * made, its guard failed, pending past the deadline, its node lost. `times` is updated in place. A trial
 * container that ended by itself is not among these (trialEnded): what its agent did is scored.
 */
export function podFailure(pod: V1Pod, node: V1Node | undefined, now: number, times: PodTimes, limits: FateLimits): string | null {
  const where = pod.spec?.nodeName ? ` on node ${pod.spec.nodeName}` : '';
  if (pod.metadata?.deletionTimestamp) return `the trial pod was deleted${where} before the trial ended (evicted, drained or removed from outside the harness)`;
  const phase = pod.status?.phase ?? 'Pending';
  if (pod.status?.reason === 'Evicted') return `the trial pod was evicted${where}: ${pod.status.message ?? 'no reason given'}`;
  if (pod.status?.reason === 'NodeLost' || pod.status?.reason === 'UnexpectedAdmissionError' || pod.status?.reason === 'OutOfmemory' || pod.status?.reason === 'OutOfcpu') {
    return `the trial pod failed${where}: ${pod.status.reason} (${pod.status.message ?? 'no message'})`;
  }
  for (const s of statuses(pod)) {
    const waiting = s.state?.waiting?.reason;
    if (waiting && IMAGE_FAILURES.has(waiting)) {
      times.imageFailingSince ??= now;
      if (now - times.imageFailingSince >= limits.imagePullMs) return `the image ${s.image} does not come${where}: ${waiting} (${s.state?.waiting?.message ?? 'no message'})`;
    } else if (waiting && CONFIG_FAILURES.has(waiting)) {
      return `the ${s.name} container cannot be created${where}: ${waiting} (${s.state?.waiting?.message ?? 'no message'})`;
    }
    const ended = s.state?.terminated;
    if (s.name === 'guard' && ended && ended.exitCode !== 0) return `the network guard failed${where} (exit ${ended.exitCode}): ${(ended.message ?? ended.reason ?? '').trim().slice(0, 300)}`;
  }
  if (pod.spec?.nodeName && !nodeReady(node) && !catchingUp(node, now, times)) {
    times.nodeDownSince ??= now;
    if (now - times.nodeDownSince >= limits.nodeLostMs) return `node ${pod.spec.nodeName} was lost while the trial ran (not ready: ${readyMessage(node)}); its trials run again`;
  } else times.nodeDownSince = null;
  if (phase === 'Failed' && !trialEnded(pod)) return `the trial pod failed${where}: ${pod.status?.reason ?? ''} ${pod.status?.message ?? ''}`.trim();
  const started = statuses(pod).some((s) => s.name === 'trial' && (s.state?.running || s.state?.terminated));
  if (!started && now - times.createdAt > limits.pendingMs) return `the trial pod stayed pending for ${Math.round(limits.pendingMs / 1000)} s (pending_deadline_s): ${pendingReason(pod)}`;
  return null;
}

/** A node unknown only because the API server was just away (its kubelet has not posted since). */
function catchingUp(node: V1Node | undefined, now: number, times: PodTimes): boolean {
  const ready = readyCondition(node);
  return ready?.status === 'Unknown' && times.apiBackAt != null && now - times.apiBackAt < NODE_CATCH_UP_MS;
}

function readyMessage(node: V1Node | undefined): string {
  const ready = readyCondition(node);
  return `${ready?.reason ?? 'unknown'}${ready?.message ? `, ${ready.message}` : ''}`;
}

/** Why a pod is pending: the scheduler's word, else its containers' waiting reasons. */
export function pendingReason(pod: V1Pod): string {
  const unscheduled = pod.status?.conditions?.find((c) => c.type === 'PodScheduled' && c.status === 'False');
  if (unscheduled) return `not scheduled: ${unscheduled.message ?? unscheduled.reason ?? 'no reason given'}`;
  const waiting = statuses(pod)
    .map((s) => s.state?.waiting && `${s.name}: ${s.state.waiting.reason}${s.state.waiting.message ? ` (${s.state.waiting.message})` : ''}`)
    .filter(Boolean);
  return waiting.length ? waiting.join('; ') : `phase ${pod.status?.phase ?? 'unknown'}`;
}
