import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { JOB_FILE, removeEmptyFolder } from './job-file.js';
import { closeJob, haltedError } from './job/close.js';
import { openJob } from './job/open.js';
import type { JobSummary, RunJobOptions } from './job/options.js';
import { provisionJob } from './job/provision.js';
import { runTrials } from './job/run.js';
import { lockJobDir, type JobLock } from './lock.js';
import { jobReporter } from './reporters.js';
import { jobRunning } from './running.js';

export type { JobSummary, RunJobOptions } from './job/options.js';

/**
 * Runs a job: expands the config into trials, skips finished ones (resume), builds images, starts the
 * gateway, and runs the rest with bounded concurrency, retrying infrastructure errors. SIGINT/SIGTERM (or
 * `signal`) stop it cleanly: no new trials, running containers removed, the job resumable. The job folder
 * is locked while it runs (a second run on it stops with JobLocked); a failed write under it (a full disk)
 * stops the job the same clean way and throws one line. An engine that goes away is waited for up to
 * `engine_wait_s` (engine-wait.ts): the job goes on when it answers again, or stops that same way.
 */
export async function runJob(options: RunJobOptions): Promise<JobSummary> {
  let lock: JobLock | undefined;
  let made: string | undefined;
  const ended = jobRunning();
  try {
    return await runJobInFolder(options, (jobDir) => {
      if (!existsSync(jobDir)) made = jobDir;
      mkdirSync(jobDir, { recursive: true });
      lock = lockJobDir(jobDir);
      if (lock.tookOver) (options.reporter ?? { note: (l: string) => process.stderr.write(l + '\n') }).note(`took over the lock of process ${lock.tookOver.pid}, which is gone`);
    });
  } finally {
    lock?.release();
    // A run refused before its first trial leaves no job folder behind it made (a later run would take it for a job).
    if (made && !existsSync(path.join(made, JOB_FILE))) removeEmptyFolder(made);
    ended();
  }
}

/**
 * A job in four phases, as a trial has (job/): open (checks, plan, the folder locked), provision (images,
 * job.json, the gateway), run (the trials), close (everything the run started, however it ended).
 */
async function runJobInFolder(options: RunJobOptions, takeLock: (jobDir: string) => void): Promise<JobSummary> {
  const job = await openJob(options, takeLock);
  const { plans, toRun, jobDir, leftoversRemoved } = job;
  const reporter = options.reporter ?? jobReporter(options.progress ?? 'auto');
  const summary: JobSummary = { jobDir, planned: plans.length, skipped: plans.length - toRun.length, ran: 0, infraErrors: 0, interrupted: false, leftoversRemoved };
  if (leftoversRemoved) reporter.note(`removed ${leftoversRemoved} containers left by an earlier run of this job`);
  if (job.worldNote) reporter.note(job.worldNote);
  if (!toRun.length) {
    job.jobFile.write();
    reporter.note(`job ${job.loaded.config.name}: all ${plans.length} trials are done`);
    return summary;
  }
  const provisioned = await provisionJob(job, reporter, options.models);
  let halted: Error | undefined;
  try {
    halted = await runTrials(job, provisioned, summary, reporter, options);
  } finally {
    await closeJob(job, provisioned, reporter);
  }
  if (halted) throw haltedError(halted, jobDir);
  return summary;
}
