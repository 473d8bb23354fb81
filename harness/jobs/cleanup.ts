import path from 'node:path';
import { PACKAGE_ROOT } from '../../paths.js';
import { clearPartialTrials, JOB_FILE } from '../../trial/folder.js';
import type { EnvironmentProvider, SandboxInfo } from '../environments/types.js';
import { isForeignFolder } from './job-file.js';
import { jobLockHolder, removeStaleLock, type LockHolder } from './lock.js';
import { CHECKOUT_LABEL, JOB_DIR_LABEL, JOB_LABEL, jobKeyOf } from './labels.js';

export interface CleanupScope {
  /** One job folder. */
  job?: string;
  /** Every AAR container on the engine, other checkouts' and users' too. */
  all?: boolean;
}

export interface CleanupResult {
  /** Containers removed, grouped by job folder (or job key where the container does not name its folder). */
  removed: { job: string; count: number; containers: SandboxInfo[] }[];
  /** Jobs left alone because a live process holds their lock (they are running, not left over). */
  running: { job: string; holder: LockHolder; containers: number }[];
}

/**
 * Removes containers left by killed runs: of one job, of this checkout's jobs (default), or of every AAR
 * job (`all`). A job whose lock a live process holds is running, and its containers are kept. With `job`, its
 * half-written trial folders (.partial) and the lock its dead process left go too; a folder given as the job
 * that is not one is refused.
 */
export async function cleanupContainers(environment: EnvironmentProvider, scope: CleanupScope): Promise<CleanupResult> {
  // A folder of someone's files given as the job: nothing in it is the harness's to delete.
  if (scope.job && isForeignFolder(scope.job)) {
    throw new Error(`${scope.job} is not a job folder (no ${JOB_FILE} and no trial folder): cleanup leaves it and its containers alone`);
  }
  const selector: Record<string, string> = scope.job ? { [JOB_LABEL]: jobKeyOf(scope.job) } : scope.all ? { 'aar-harness': '1' } : { 'aar-harness': '1', [CHECKOUT_LABEL]: PACKAGE_ROOT };
  const result: CleanupResult = { removed: [], running: [] };
  const byJob = new Map<string, SandboxInfo[]>();
  for (const c of await environment.listByLabels(selector)) {
    const key = c.labels[JOB_LABEL] ?? '';
    byJob.set(key, [...(byJob.get(key) ?? []), c]);
  }
  for (const [key, containers] of byJob) {
    const jobDir = scope.job ? path.resolve(scope.job) : containers[0].labels[JOB_DIR_LABEL];
    const holder = jobDir ? jobLockHolder(jobDir) : undefined;
    if (holder) {
      result.running.push({ job: jobDir!, holder, containers: containers.length });
      continue;
    }
    await environment.removeByLabels(key ? { ...selector, [JOB_LABEL]: key } : selector);
    result.removed.push({ job: jobDir ?? `job key ${key || '(none)'}`, count: containers.length, containers });
  }
  // What the environment keeps for a job besides its sandboxes (a network, say) goes too, when no sandbox is left.
  if (scope.job && !byJob.size && !jobLockHolder(scope.job)) await environment.removeByLabels(selector);
  if (scope.job && !result.running.length) {
    clearPartialTrials(scope.job);
    // The lock of the killed run that left these: its process is gone (a live one is kept above).
    removeStaleLock(scope.job);
  }
  return result;
}
