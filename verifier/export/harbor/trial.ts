import { createHash } from 'node:crypto';
import path from 'node:path';
import type { ExportJob, ExportTrial } from '../types.js';

/** A UUID (version 8 layout) from a name: the same name, the same id. */
export function uuidOf(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The job's id, made from the folder it was exported from. */
export const jobIdOf = (job: ExportJob): string => uuidOf(`job:${path.resolve(job.jobDir)}`);

/** The family's headline figures as Harbor's rewards: a yes/no figure as 1/0, a figure not defined for the trial left out. */
export function rewardsOf(trial: ExportTrial): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(trial.metrics)) if (value !== null) out[name] = typeof value === 'boolean' ? Number(value) : value;
  return out;
}

/** Where the job's tasks came from, as Harbor labels a job's source: the dataset's name, else its task folder's. */
export function sourceOf(job: ExportJob): string {
  const tasks = (job.job?.config.tasks ?? {}) as { dataset?: string; path?: string | string[] };
  if (tasks.dataset) return tasks.dataset;
  const paths = Array.isArray(tasks.path) ? tasks.path : tasks.path ? [tasks.path] : [];
  const last = (p: string) => p.replace(/[\\/]+$/, '').split(/[\\/]/).at(-1) || p;
  return paths.length ? paths.map(last).join('+') : job.family;
}

/** Harbor's name for an environment, where it has one (its EnvironmentType); a swarm has none. */
export const harborEnvironment = (name: string | undefined): string | undefined => (name === 'docker' ? 'docker' : undefined);

/** A trial's config.json (Harbor's TrialConfig): paths relative to the export, so a moved export stays whole. */
export function trialConfig(job: ExportJob, trial: ExportTrial, folder: string) {
  const { record } = trial.result;
  const environment = harborEnvironment(record.environment?.name);
  return {
    task: { path: record.leg.id, source: sourceOf(job) },
    trial_name: folder,
    // The trial folders sit in the job's folder: "." is where this config is read from.
    trials_dir: '.',
    timeout_multiplier: 1,
    agent: { name: record.agent.name, ...(record.agent.model ? { model_name: record.agent.model } : {}), kwargs: { id: record.agent.id, ...(record.agent.version ? { version: record.agent.version } : {}) } },
    environment: { ...(environment ? { type: environment } : {}), kwargs: { aar_environment: record.environment?.name ?? null, node: record.environment?.node ?? null } },
    job_id: jobIdOf(job),
  };
}

const span = (p: { started_at: string; finished_at: string } | undefined) => (p ? { started_at: p.started_at, finished_at: p.finished_at } : null);

/**
 * How the run ended when it ended early, as Harbor names it (AgentTimeoutError, NonZeroAgentExitCodeError:
 * both keep the reward valid, as the trial is scored); null for a run that ended by itself.
 */
function exceptionOf(trial: ExportTrial) {
  const { record } = trial.result;
  if (record.status === 'completed') return null;
  const type = record.status === 'timed_out' ? 'AgentTimeoutError' : 'NonZeroAgentExitCodeError';
  return { exception_type: type, exception_message: record.error ?? record.status, exception_traceback: '', occurred_at: record.finished_at };
}

/**
 * A trial's result.json (Harbor's TrialResult): task, agent, tokens and cost, the rewards, and the phases'
 * times from trial.json (setup as environment setup, the agent's run, scoring as the verifier; records
 * older than the phases give the trial's start and end only). The agents are installed in their image, so no
 * trial has an agent setup.
 */
export function trialResult(job: ExportJob, trial: ExportTrial, folder: string) {
  const { record, score } = trial.result;
  const m = trial.trajectory.final_metrics;
  const phases = record.timings.phases;
  return {
    // From the folder, unique in the export (two trials may carry the same trial_id).
    id: uuidOf(folder),
    task_name: record.leg.id,
    trial_name: folder,
    // Relative to the job's folder (Harbor writes an absolute file:// URI; a moved export would point back).
    trial_uri: folder,
    task_id: { path: record.leg.id },
    source: sourceOf(job),
    task_checksum: record.leg.sha256,
    config: trialConfig(job, trial, folder),
    agent_info: { name: record.agent.name, version: record.agent.version ?? trial.trajectory.agent.version, ...(record.agent.model ? { model_info: { name: record.agent.model } } : {}) },
    agent_result: {
      n_input_tokens: m?.total_prompt_tokens ?? record.run.input_tokens ?? null,
      n_cache_tokens: m?.total_cached_tokens ?? record.run.cached_tokens ?? null,
      n_output_tokens: m?.total_completion_tokens ?? record.run.output_tokens ?? null,
      cost_usd: m?.total_cost_usd ?? record.run.cost_usd ?? null,
      metadata: { status: record.status, error: record.error, target: trial.outcome.target, answer: trial.outcome.answer, explanation: trial.outcome.explanation, score },
    },
    verifier_result: { rewards: rewardsOf(trial) },
    exception_info: exceptionOf(trial),
    started_at: record.started_at,
    finished_at: phases?.scoring?.finished_at ?? record.finished_at,
    environment_setup: span(phases?.setup),
    agent_setup: null,
    agent_execution: span(phases?.agent),
    verifier: span(phases?.scoring),
  };
}
