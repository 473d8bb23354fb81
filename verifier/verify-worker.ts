import { parentPort, workerData } from 'node:worker_threads';
import { verifyTrialDirs } from './verify.js';

/** One slice of `verifyJob` in a worker thread. */
const { dirs, dryRun } = workerData as { dirs: string[]; dryRun: boolean };
parentPort!.postMessage(await verifyTrialDirs(dirs, dryRun));
