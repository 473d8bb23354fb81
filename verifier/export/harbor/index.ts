import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { exportFolderNames } from '../folder-names.js';
import type { ExportJob, ExportTrial, Exporter } from '../types.js';

/**
 * Harbor's job folder (harbor.models.job.result.JobResult in result.json) with one folder per trial as a
 * Harbor trial leaves it: result.json (TrialResult: task, agent, tokens and cost, the rewards), config.json,
 * agent/trajectory.json (the ATIF trajectory) and verifier/reward.json (the family's headline figures; a
 * yes/no figure as 1/0, a figure not defined for the trial left out). Ids are UUIDs made from the trial ids,
 * so the same job exports the same files.
 */
export const harborExporter: Exporter = {
  name: 'harbor',
  description: "Harbor's job layout: result.json, and per trial result.json, agent/trajectory.json, verifier/reward.json",
  write(job, outDir) {
    mkdirSync(outDir, { recursive: true });
    const written = [path.join(outDir, 'result.json')];
    exportFolderNames(job.trials.map((t) => t.result.record.trial_id)).forEach((name, i) => folderNames.set(job.trials[i]!, name));
    for (const trial of job.trials) {
      const dir = path.join(outDir, nameOf(trial));
      mkdirSync(path.join(dir, 'agent'), { recursive: true });
      mkdirSync(path.join(dir, 'verifier'), { recursive: true });
      writeJson(path.join(dir, 'agent', 'trajectory.json'), trial.trajectory);
      writeJson(path.join(dir, 'verifier', 'reward.json'), rewardsOf(trial));
      writeJson(path.join(dir, 'config.json'), trialConfig(trial, outDir));
      writeJson(path.join(dir, 'result.json'), trialResult(trial, dir, outDir));
    }
    writeJson(written[0]!, jobResult(job));
    return written;
  },
};

/** Each trial's folder name in this export: safe and unique (folder-names.ts), set when the export starts. */
const folderNames = new WeakMap<ExportTrial, string>();
const nameOf = (trial: ExportTrial): string => folderNames.get(trial)!;
const writeJson = (file: string, value: unknown) => writeFileSync(file, JSON.stringify(value, null, 2) + '\n');

/** A UUID (version 8 layout) from a name: the same name, the same id. */
function uuidOf(name: string): string {
  const h = createHash('sha256').update(name).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function rewardsOf(trial: ExportTrial): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, value] of Object.entries(trial.metrics)) if (value !== null) out[name] = typeof value === 'boolean' ? Number(value) : value;
  return out;
}

function trialConfig(trial: ExportTrial, outDir: string) {
  const { record } = trial.result;
  return {
    task: { path: record.leg.file },
    trial_name: nameOf(trial),
    trials_dir: outDir,
    agent: { name: record.agent.name, ...(record.agent.model ? { model_name: record.agent.model } : {}) },
  };
}

function trialResult(trial: ExportTrial, dir: string, outDir: string) {
  const { record, score } = trial.result;
  const m = trial.trajectory.final_metrics;
  return {
    id: uuidOf(nameOf(trial)),
    task_name: record.leg.id,
    trial_name: nameOf(trial),
    trial_uri: pathToFileURL(path.resolve(dir)).href,
    task_id: { path: record.leg.file },
    source: 'aar-harness',
    task_checksum: record.leg.sha256,
    config: trialConfig(trial, outDir),
    agent_info: { name: record.agent.name, version: record.agent.version ?? trial.trajectory.agent.version, ...(record.agent.model ? { model_info: { name: record.agent.model } } : {}) },
    agent_result: {
      n_input_tokens: m?.total_prompt_tokens ?? null,
      n_cache_tokens: m?.total_cached_tokens ?? null,
      n_output_tokens: m?.total_completion_tokens ?? null,
      cost_usd: m?.total_cost_usd ?? null,
      metadata: { status: record.status, error: record.error, score },
    },
    verifier_result: { rewards: rewardsOf(trial) },
    started_at: record.started_at,
    finished_at: record.finished_at,
  };
}

function jobResult(job: ExportJob) {
  const evals: Record<string, { n_trials: number; n_errors: number; metrics: Record<string, number>[]; reward_stats: Record<string, Record<string, string[]>> }> = {};
  for (const trial of job.trials) {
    const { record } = trial.result;
    const key = `${record.agent.name}__${record.agent.model ?? 'none'}__${job.name}`;
    const stats = (evals[key] ??= { n_trials: 0, n_errors: 0, metrics: [], reward_stats: {} });
    stats.n_trials++;
    for (const [name, value] of Object.entries(rewardsOf(trial))) ((stats.reward_stats[name] ??= {})[String(value)] ??= []).push(nameOf(trial));
  }
  for (const [key, stats] of Object.entries(evals)) {
    const trials = job.trials.filter((t) => `${t.result.record.agent.name}__${t.result.record.agent.model ?? 'none'}__${job.name}` === key);
    const names = [...new Set(trials.flatMap((t) => Object.keys(rewardsOf(t))))];
    stats.metrics = [Object.fromEntries(names.map((n) => {
      const values = trials.map((t) => rewardsOf(t)[n]).filter((v): v is number => v !== undefined);
      return [`mean_${n}`, values.reduce((a, b) => a + b, 0) / values.length];
    }))];
  }
  const times = job.trials.flatMap((t) => [t.result.record.started_at, t.result.record.finished_at]).sort();
  return {
    id: uuidOf(`job:${path.resolve(job.jobDir)}`),
    started_at: times[0] ?? new Date().toISOString(),
    finished_at: times.at(-1) ?? new Date().toISOString(),
    n_total_trials: job.trials.length,
    stats: { n_trials: job.trials.length, n_errors: 0, evals },
  };
}
