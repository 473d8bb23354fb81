import path from 'node:path';
import { clearPartialTrials } from '../../../trial/folder.js';
import type { LoadedConfig } from '../../config/load.js';
import { loadJobConfigWithPlugins } from '../../plugins/config.js';
import { checkAgents } from '../agent-check.js';
import { changedLegs, finishedTrials } from '../growth.js';
import { JobEnvironment } from '../job-environment.js';
import { checkJobFile, refuseFileAsFolder, refuseForeignFolder } from '../job-file.js';
import { loadJobTasks } from '../job-tasks.js';
import { refuseMissingToolKeys } from '../job-tools.js';
import { planTrials, type TrialPlan } from '../plan.js';
import { checkStoredWorld } from '../world-coverage.js';
import type { RunJobOptions } from './options.js';

type JobTasks = Awaited<ReturnType<typeof loadJobTasks>>;

/** A job opened: its config checked, its trials planned, its folder locked and cleared of an earlier run's leftovers. */
export interface OpenedJob {
  loaded: LoadedConfig;
  family: JobTasks['family'];
  tasks: JobTasks['tasks'];
  plans: TrialPlan[];
  /** The planned trials not finished in the job folder, in plan order. */
  toRun: TrialPlan[];
  jobDir: string;
  environment: JobEnvironment;
  /** job.json, checked against the folder's trials; written once nothing is left to refuse the run. */
  jobFile: { write(): void };
  leftoversRemoved: number;
  /** What the world store cannot answer (replay and pinned modes), to be said before the run. */
  worldNote?: string;
}

/**
 * The job's first phase: everything that can refuse the run before anything is started (config, tasks,
 * agents, tool keys, the stored world, the job folder), then the environment checked, the folder locked
 * (`takeLock`), the job file checked against the finished trials, and what a killed run left removed.
 */
export async function openJob(options: RunJobOptions, takeLock: (jobDir: string) => void): Promise<OpenedJob> {
  const loaded = options.config ?? (await loadJobConfigWithPlugins(options.configPath ?? 'configs/default.yaml'));
  const { config } = loaded;
  const { family, tasks } = await loadJobTasks(loaded);
  checkAgents(loaded);
  refuseMissingToolKeys(loaded, family.tools);
  const worldNote = await checkStoredWorld(loaded, family, tasks, options.allowMissing ?? false);
  const plans = planTrials(config, tasks);

  const jobsDir = loaded.resolve(config.output);
  const jobDir = path.join(jobsDir, config.name);
  refuseFileAsFolder(loaded, jobsDir, jobDir);
  refuseForeignFolder(jobDir, loaded.file);

  const environment = await JobEnvironment.open(config, jobDir);
  takeLock(jobDir);
  const done = finishedTrials(jobDir);
  const jobFile = checkJobFile(jobDir, loaded, options.allowConfigChange ?? false, changedLegs(plans, done));
  const leftoversRemoved = await environment.removeLeftovers();
  clearPartialTrials(jobDir);
  const toRun = plans.filter((p) => !done.has(p.trialId));
  return { loaded, family, tasks, plans, toRun, jobDir, environment, jobFile, leftoversRemoved, worldNote };
}
