import { createHash } from 'node:crypto';
import path from 'node:path';
import { PACKAGE_ROOT } from '../../paths.js';

/** The labels on every container of a job, by which `aar cleanup` and a resumed run find a killed run's leftovers. */
export const JOB_LABEL = 'aar.job_key';
/** The checkout (package root) whose harness started a container, so `aar cleanup` leaves other checkouts' alone. */
export const CHECKOUT_LABEL = 'aar.checkout';
/** The job folder of a container, so `aar cleanup` can tell whether its job still runs (holds the lock). */
export const JOB_DIR_LABEL = 'aar.job_dir';

/** The labels every container of a job carries. */
export const harnessLabels = (jobDir: string, jobKey: string): Record<string, string> => ({
  'aar-harness': '1',
  [JOB_LABEL]: jobKey,
  [CHECKOUT_LABEL]: PACKAGE_ROOT,
  [JOB_DIR_LABEL]: path.resolve(jobDir),
});

/** The label value naming a job's containers: derived from its folder, so a rerun finds a killed run's leftovers. */
export function jobKeyOf(jobDir: string): string {
  return createHash('sha256').update(path.resolve(jobDir)).digest('hex').slice(0, 16);
}
