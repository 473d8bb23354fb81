import { rmSync } from 'node:fs';
import { clearPartialTrials } from '../../../trial/folder.js';
import { EngineGone } from '../engine-wait.js';
import type { JobReporter } from '../reporters.js';
import { HostWriteFailure } from '../write-errors.js';
import type { OpenedJob } from './open.js';
import type { ProvisionedJob } from './provision.js';

/** The job's last phase, however the run ended: sandboxes removed, the gateway and local model closed, the socket folder and partial trials gone. */
export async function closeJob(job: OpenedJob, provisioned: ProvisionedJob, reporter: JobReporter): Promise<void> {
  await job.environment.close((line) => reporter.note(line));
  await provisioned.gateway.close();
  await provisioned.models?.close?.().catch((error: Error) => reporter.note(`local model: ${error.message}`));
  rmSync(provisioned.socketDir, { recursive: true, force: true });
  // No trial is being written any more: what .partial holds is left over (and an empty .partial is clutter).
  clearPartialTrials(job.jobDir);
  reporter.finish();
}

/** The one-line error of a job stopped by an error (the engine gone, a refused write, a fault of the harness), saying how to resume. */
export function haltedError(halted: Error, jobDir: string): Error {
  if (halted instanceof EngineGone) {
    return new Error(`${halted.message}; finished trials kept, the lost ones left no folder: run again to resume once it answers (that run removes this one's containers)`);
  }
  const why = halted instanceof HostWriteFailure ? `cannot write under ${jobDir}: ${halted.message}` : `stopped by an error of the harness: ${halted.message.split('\n')[0]}`;
  return new Error(`${why}; running containers removed, finished trials kept: run again to resume${halted instanceof HostWriteFailure ? ' once the disk has room' : ''}`);
}
