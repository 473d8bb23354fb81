import { parentPort, workerData } from 'node:worker_threads';
import { verifyTrialDirs } from './verify.js';

/** One slice of `verifyJob` in a worker thread. */
const { dirs, fix } = workerData as { dirs: string[]; fix: boolean };
parentPort!.postMessage(await verifyTrialDirs(dirs, fix));
