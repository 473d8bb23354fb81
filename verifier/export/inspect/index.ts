import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ExportJob, ExportTrial, Exporter } from '../types.js';
import { idOf } from './messages.js';
import { inspectSample, scoreValue, usageOf } from './sample.js';

/**
 * Inspect AI's eval log (the `.json` form `inspect_ai.log.read_eval_log` reads and `inspect view` lists), one
 * per agent configuration: a sample per trial (see sample.ts), and before them the header Inspect reads alone
 * for its list (`read_eval_log(header_only=True)`): the eval (task, model, dataset, the family's scorer and
 * its metrics), the plan (the agent as the solver), the results (each figure's mean over the trials where it
 * is defined) and the stats (times, model usage). The per-leg means over attempts follow the samples.
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

const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

/** Each figure's mean over the trials where it is defined, as Inspect's results list its scorer's metrics. */
function results(trials: ExportTrial[], scorer: string, names: string[]) {
  return {
    total_samples: trials.length,
    completed_samples: trials.length,
    scores: names.map((name) => {
      const values = trials.map((t) => scoreValue(t)[name]).filter((v) => v !== undefined).map(Number);
      return {
        name,
        scorer,
        scored_samples: values.length,
        unscored_samples: trials.length - values.length,
        params: {},
        metrics: { mean: { name: 'mean', value: values.length ? mean(values) : 0, params: {} } },
      };
    }),
  };
}

/** A leg's attempts as one value per figure (their mean), as Inspect reduces epochs. */
function reductions(trials: ExportTrial[], scorer: string) {
  const byLeg = new Map<string, ExportTrial[]>();
  for (const t of trials) byLeg.set(t.result.record.leg.id, [...(byLeg.get(t.result.record.leg.id) ?? []), t]);
  const samples = [...byLeg].map(([id, legTrials]) => {
    const names = [...new Set(legTrials.flatMap((t) => Object.keys(scoreValue(t))))];
    const value = Object.fromEntries(names.map((n) => [n, mean(legTrials.map((t) => scoreValue(t)[n]).filter((v) => v !== undefined).map(Number))]));
    return { value, sample_id: id, history: [] };
  });
  return [{ scorer, reducer: 'mean', samples }];
}

function evalLog(job: ExportJob, agentId: string, trials: ExportTrial[]) {
  const first = trials[0]!.result.record;
  const scorer = job.family;
  const model = first.agent.model ?? first.agent.name;
  const config = job.job?.config ?? {};
  const timeoutS = typeof config.timeout_s === 'number' ? config.timeout_s : null;
  const names = [...new Set(trials.flatMap((t) => Object.keys(t.metrics)))];
  const totals: Record<string, Record<string, number>> = {};
  for (const trial of trials) {
    for (const [m, u] of Object.entries(usageOf(trial))) {
      const t = (totals[m] ??= {});
      for (const [k, v] of Object.entries(u)) t[k] = (t[k] ?? 0) + v;
    }
  }
  const started = trials.map((t) => t.result.record.started_at).sort()[0] ?? '';
  const finished = trials.map((t) => t.result.record.finished_at).sort().at(-1) ?? '';
  const legIds = [...new Set(trials.map((t) => t.result.record.leg.id))];
  return {
    version: 2,
    status: 'success',
    eval: {
      eval_id: idOf(`${job.jobDir}/${agentId}/eval`),
      run_id: idOf(`${job.jobDir}/run`),
      created: started || new Date().toISOString(),
      // An agent is Inspect's solver: each configuration is a task of its own (one task id would list them as retries of one).
      task: `${job.name}/${agentId}`,
      task_id: idOf(`${job.jobDir}/${agentId}/task`),
      task_version: 0,
      task_display_name: `${job.name}/${agentId}`,
      task_attribs: {},
      task_args: {},
      dataset: { name: scorer, ...(config.tasks ? { location: JSON.stringify(config.tasks) } : {}), samples: legIds.length, sample_ids: legIds, shuffled: false },
      model,
      model_generate_config: {},
      config: { epochs: Math.max(...trials.map((t) => t.result.record.attempt)) },
      packages: { 'aar-harness': first.harness_version },
      metadata: { exported_by: 'aar-harness', job: job.name, job_dir: job.jobDir, agent: first.agent, family: scorer },
      scorers: [{ name: scorer, options: {}, metrics: Object.fromEntries(names.map((n) => [n, [{ name: 'inspect_ai/mean', options: {} }]])), metadata: {} }],
    },
    plan: {
      name: 'plan',
      steps: [{ solver: first.agent.name, params: { id: agentId, model: first.agent.model, version: first.agent.version }, params_passed: {} }],
      config: {},
    },
    results: results(trials, scorer, names),
    stats: { started_at: started, completed_at: finished, model_usage: totals },
    invalidated: false,
    tags: [],
    metadata: {},
    // Everything above is the header Inspect reads alone (header_only): it stops at `samples`.
    samples: trials.map((t) => inspectSample(t, { model, scorer, timeoutS })),
    reductions: reductions(trials, scorer),
  };
}
