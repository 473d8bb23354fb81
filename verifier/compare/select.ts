import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_FAMILY } from '../../tasks/registry.js';
import { recordedSettings } from '../../trial/job-meaning.js';
import { readJsonFile } from '../../trial/record.js';
import { loadJobResults, type TrialResult } from '../results.js';

/** What job.json says about the run that made a job's trials (the budgets compare checks). */
export interface JobFacts {
  file: string;
  harnessVersion: string | null;
  configFile: string | null;
  /** The effective config as the job wrote it (harness/config/schema.ts JobConfig of its day), never re-parsed. */
  config: Record<string, unknown>;
  /** The meaning settings job.json records (trial/job-meaning.ts): its `meaning`, or derived from its `config` when older. */
  settings: Record<string, unknown>;
  settingsSource: 'recorded' | 'derived';
}

/** One agent configuration of one job: the unit compare puts side by side. */
export interface Configuration {
  /** How tables name it: the agent id, or `<job>:<agent>` when several jobs are compared. */
  label: string;
  jobDir: string;
  agent: string;
  model: string | null;
  family: string;
  trials: TrialResult[];
  job: JobFacts | null;
}

const JobFileSchema = z.looseObject({
  harness_version: z.string().optional(),
  config_file: z.string().optional(),
  config: z.record(z.string(), z.unknown()),
  meaning: z.looseObject({ settings: z.record(z.string(), z.unknown()) }).optional(),
});

export function readJobFacts(jobDir: string): JobFacts | null {
  const file = path.join(jobDir, 'job.json');
  if (!existsSync(file)) return null;
  const job = readJsonFile(file, JobFileSchema);
  const { settings, source } = recordedSettings(job)!;
  return { file, harnessVersion: job.harness_version ?? null, configFile: job.config_file ?? null, config: job.config, settings, settingsSource: source };
}

const isDir = (p: string): boolean => existsSync(p) && statSync(p).isDirectory();

/** `JOB` (every agent of the job) or `JOB:AGENT` (one agent configuration, by its id). */
export function parseSelection(arg: string): { jobDir: string; agent: string | null } {
  if (isDir(arg)) return { jobDir: arg, agent: null };
  const colon = arg.lastIndexOf(':');
  if (colon > 0 && isDir(arg.slice(0, colon)) && colon < arg.length - 1) return { jobDir: arg.slice(0, colon), agent: arg.slice(colon + 1) };
  throw new Error(`${arg}: not a job folder, nor JOB:AGENT with a job folder before the colon`);
}

/** The configurations named by the arguments, each with its trials, in argument order (agents sorted within a job). */
export function loadConfigurations(args: readonly string[]): Configuration[] {
  if (!args.length) throw new Error('compare: name at least one job folder or JOB:AGENT');
  const jobs = new Map<string, TrialResult[]>();
  const configs: Omit<Configuration, 'label'>[] = [];
  for (const arg of args) {
    const { jobDir, agent } = parseSelection(arg);
    const key = path.resolve(jobDir);
    if (!jobs.has(key)) jobs.set(key, loadJobResults(jobDir));
    const trials = jobs.get(key)!;
    const agents = [...new Set(trials.map((t) => t.record.agent.id))].sort();
    if (agent !== null && !agents.includes(agent)) {
      throw new Error(`${arg}: no agent '${agent}' in ${jobDir}; its agents: ${agents.join(', ') || '(no trials)'}`);
    }
    if (!agents.length) throw new Error(`${jobDir}: no trials`);
    const job = readJobFacts(jobDir);
    for (const id of agent === null ? agents : [agent]) {
      if (configs.some((c) => path.resolve(c.jobDir) === key && c.agent === id)) continue;
      const own = trials.filter((t) => t.record.agent.id === id);
      configs.push({ jobDir, agent: id, model: own[0].record.agent.model, family: own[0].record.family ?? DEFAULT_FAMILY, trials: own, job });
    }
  }
  const manyJobs = new Set(configs.map((c) => path.resolve(c.jobDir))).size > 1;
  const labels = configs.map((c) => (manyJobs ? `${path.basename(path.resolve(c.jobDir))}:${c.agent}` : c.agent));
  return configs.map((c, i) => ({ ...c, label: labels.indexOf(labels[i]) === i ? labels[i] : `${path.resolve(c.jobDir)}:${c.agent}` }));
}
