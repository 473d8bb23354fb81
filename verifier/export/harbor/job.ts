import type { ExportJob, ExportTrial } from '../types.js';
import { harborEnvironment, jobIdOf, rewardsOf, sourceOf } from './trial.js';

/**
 * The job's config.json (Harbor's JobConfig, which its viewer reads for the job list's agents, models and
 * source): the agents with their models, the task source, attempts, concurrency and environment from job.json.
 */
export function jobConfig(job: ExportJob) {
  const config = job.job?.config ?? {};
  const agents = new Map<string, { name: string; model_name?: string; kwargs: Record<string, unknown> }>();
  for (const t of job.trials) {
    const a = t.result.record.agent;
    if (!agents.has(a.id)) agents.set(a.id, { name: a.name, ...(a.model ? { model_name: a.model } : {}), kwargs: { id: a.id } });
  }
  const tasks = (config.tasks ?? {}) as { dataset?: string };
  const environment = harborEnvironment(typeof config.environment === 'string' ? config.environment : job.trials[0]?.result.record.environment?.name);
  return {
    job_name: job.name,
    // The folder holding the job's folder, relative to it (Harbor writes an absolute path; a moved export would point back).
    jobs_dir: '..',
    n_attempts: Math.max(1, ...job.trials.map((t) => t.result.record.attempt)),
    ...(typeof config.concurrency === 'number' ? { n_concurrent_trials: config.concurrency } : {}),
    environment: environment ? { type: environment } : {},
    agents: [...agents.values()],
    // A dataset by name (`tasks: {dataset: aar}`), else the folder the legs were read from, by its name.
    datasets: [tasks.dataset ? { name: tasks.dataset } : { path: sourceOf(job) }],
  };
}

/** Harbor's key of one agent x model x dataset in the job's stats (JobStats.format_agent_evals_key). */
const evalsKey = (agent: string, model: string | null, dataset: string): string => (model ? `${agent}__${model}__${dataset}` : `${agent}__${dataset}`);

const sum = (values: (number | null | undefined)[]): number | null => (values.some((v) => typeof v === 'number') ? values.reduce<number>((a, v) => a + (v ?? 0), 0) : null);

/** The job's result.json (Harbor's JobResult), its stats summed from the trials as Harbor's JobStats would. */
export function jobResult(job: ExportJob, folderOf: (trial: ExportTrial) => string) {
  const source = sourceOf(job);
  const evals: Record<string, { n_trials: number; n_errors: number; metrics: Record<string, number>[]; reward_stats: Record<string, Record<string, string[]>>; exception_stats: Record<string, string[]> }> = {};
  const members = new Map<string, ExportTrial[]>();
  let errored = 0;
  for (const trial of job.trials) {
    const { record } = trial.result;
    const key = evalsKey(record.agent.name, record.agent.model, source);
    const stats = (evals[key] ??= { n_trials: 0, n_errors: 0, metrics: [], reward_stats: {}, exception_stats: {} });
    members.set(key, [...(members.get(key) ?? []), trial]);
    stats.n_trials++;
    for (const [name, value] of Object.entries(rewardsOf(trial))) ((stats.reward_stats[name] ??= {})[String(value)] ??= []).push(folderOf(trial));
    if (record.status !== 'completed') {
      const type = record.status === 'timed_out' ? 'AgentTimeoutError' : 'NonZeroAgentExitCodeError';
      (stats.exception_stats[type] ??= []).push(folderOf(trial));
      stats.n_errors++;
      errored++;
    }
  }
  for (const [key, stats] of Object.entries(evals)) {
    const trials = members.get(key)!;
    const names = [...new Set(trials.flatMap((t) => Object.keys(rewardsOf(t))))];
    stats.metrics = [Object.fromEntries(names.map((n) => {
      const values = trials.map((t) => rewardsOf(t)[n]).filter((v): v is number => v !== undefined);
      return [`mean_${n}`, values.reduce((a, b) => a + b, 0) / values.length];
    }))];
  }
  const metricsOf = (t: ExportTrial) => t.trajectory.final_metrics;
  const times = job.trials.flatMap((t) => [t.result.record.started_at, t.result.record.finished_at]).sort();
  return {
    id: jobIdOf(job),
    started_at: times[0] ?? new Date().toISOString(),
    finished_at: times.at(-1) ?? new Date().toISOString(),
    n_total_trials: job.trials.length,
    stats: {
      n_completed_trials: job.trials.length,
      n_errored_trials: errored,
      evals,
      n_input_tokens: sum(job.trials.map((t) => metricsOf(t)?.total_prompt_tokens ?? t.result.record.run.input_tokens)),
      n_cache_tokens: sum(job.trials.map((t) => metricsOf(t)?.total_cached_tokens ?? t.result.record.run.cached_tokens)),
      n_output_tokens: sum(job.trials.map((t) => metricsOf(t)?.total_completion_tokens ?? t.result.record.run.output_tokens)),
      cost_usd: sum(job.trials.map((t) => metricsOf(t)?.total_cost_usd ?? t.result.record.run.cost_usd)),
    },
  };
}
