import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExportJob, ExportTrial, Exporter } from '../types.js';
import { inspectMessages } from './messages.js';

/**
 * Inspect AI's eval log (the `.json` form `inspect_ai.log.read_eval_log` reads and `inspect view` lists), one
 * per agent configuration: a sample per trial (its leg's id; the attempt is the epoch), with the messages of
 * its trajectory, the family's headline figures as scores (a figure not defined for the trial is left out;
 * the whole score.json is in the sample's metadata), and the model usage.
 */
export const inspectExporter: Exporter = {
  name: 'inspect',
  description: 'Inspect AI eval logs, one per agent configuration: open with `inspect view --log-dir DIR`',
  write(job, outDir) {
    mkdirSync(outDir, { recursive: true });
    const byAgent = new Map<string, ExportTrial[]>();
    for (const trial of job.trials) byAgent.set(trial.result.record.agent.id, [...(byAgent.get(trial.result.record.agent.id) ?? []), trial]);
    return [...byAgent].map(([agentId, trials]) => {
      const file = path.join(outDir, logFileName(job, agentId, trials));
      writeFileSync(file, JSON.stringify(evalLog(job, agentId, trials)) + '\n');
      return file;
    });
  },
};

/**
 * Inspect's own log name, `<start>_<task>_<id>.json` (start as 2026-11-27T01-58-00+00-00): `inspect view`
 * lists a `.json` log only when its name starts with such a time.
 */
export function logFileName(job: ExportJob, agentId: string, trials: ExportTrial[]): string {
  const start = trials.map((t) => t.result.record.started_at).sort()[0] ?? new Date().toISOString();
  const stamp = start.replace(/\.\d+/, '').replace(/:/g, '-').replace(/Z$/, '+00-00');
  const task = `${job.name}-${agentId}`.replace(/[^A-Za-z0-9.-]+/g, '-');
  return `${stamp}_${task}_${createHash('sha256').update(`${job.name}/${agentId}`).digest('hex').slice(0, 12)}.json`;
}

type Usage = { input_tokens: number; output_tokens: number; total_tokens: number; input_tokens_cache_read?: number; total_cost?: number };

function usageOf(trial: ExportTrial): Record<string, Usage> {
  const m = trial.trajectory.final_metrics;
  if (!m?.total_prompt_tokens && !m?.total_completion_tokens) return {};
  const cached = m.total_cached_tokens ?? 0;
  const input = (m.total_prompt_tokens ?? 0) - cached;
  const output = m.total_completion_tokens ?? 0;
  const model = trial.result.record.agent.model ?? trial.trajectory.agent.model_name ?? trial.result.record.agent.name;
  return { [model]: { input_tokens: input, output_tokens: output, total_tokens: input + cached + output, ...(cached ? { input_tokens_cache_read: cached } : {}), ...(m.total_cost_usd === undefined ? {} : { total_cost: m.total_cost_usd }) } };
}

function sample(trial: ExportTrial) {
  const { record, score } = trial.result;
  const messages = inspectMessages(trial.trajectory);
  const firstUser = messages.find((m) => m.role === 'user');
  const scores = Object.fromEntries(Object.entries(trial.metrics).filter(([, v]) => v !== null).map(([name, value]) => [name, { value }]));
  return {
    id: record.leg.id,
    epoch: record.attempt,
    input: typeof firstUser?.content === 'string' ? firstUser.content : '',
    target: '',
    messages,
    scores,
    metadata: { trial_id: record.trial_id, agent: record.agent, status: record.status, error: record.error, variant: record.leg.variant, level: record.leg.level, score },
    model_usage: usageOf(trial),
    started_at: record.started_at,
    completed_at: record.finished_at,
    total_time: record.timings?.total_s,
    working_time: record.timings?.agent_s,
  };
}

function evalLog(job: ExportJob, agentId: string, trials: ExportTrial[]) {
  const first = trials[0]!.result.record;
  const names = [...new Set(trials.flatMap((t) => Object.keys(t.metrics)))];
  const mean = (name: string) => {
    const values = trials.map((t) => t.metrics[name]).filter((v): v is number | boolean => v !== null && v !== undefined).map(Number);
    return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
  };
  const totals: Record<string, Usage> = {};
  for (const trial of trials) {
    for (const [model, u] of Object.entries(usageOf(trial))) {
      const t = (totals[model] ??= { input_tokens: 0, output_tokens: 0, total_tokens: 0 });
      t.input_tokens += u.input_tokens;
      t.output_tokens += u.output_tokens;
      t.total_tokens += u.total_tokens;
      if (u.input_tokens_cache_read) t.input_tokens_cache_read = (t.input_tokens_cache_read ?? 0) + u.input_tokens_cache_read;
      if (u.total_cost !== undefined) t.total_cost = (t.total_cost ?? 0) + u.total_cost;
    }
  }
  const started = trials.map((t) => t.result.record.started_at).sort()[0] ?? '';
  const finished = trials.map((t) => t.result.record.finished_at).sort().at(-1) ?? '';
  return {
    version: 2,
    status: 'success',
    eval: {
      created: started || new Date().toISOString(),
      task: `${job.name}/${first.family ?? 'aar'}`,
      dataset: { name: job.name, samples: trials.length },
      model: first.agent.model ?? first.agent.name,
      config: {},
      metadata: { exported_by: 'aar-harness', job_dir: job.jobDir, agent: agentId },
    },
    results: {
      total_samples: trials.length,
      completed_samples: trials.length,
      scores: names.map((name) => ({ name, scorer: 'aar-harness', metrics: { mean: { name: 'mean', value: mean(name) } } })),
    },
    stats: { started_at: started, completed_at: finished, model_usage: totals },
    samples: trials.map(sample),
  };
}
