import type { ExportTrial } from '../types.js';
import { modelUsage, sampleEvents, type InspectScore } from './events.js';
import { idOf, inspectMessages } from './messages.js';

/** The figures of a trial that are defined for it, yes/no as they are (Inspect's score value is a mapping). */
export const scoreValue = (trial: ExportTrial): Record<string, number | boolean> =>
  Object.fromEntries(Object.entries(trial.metrics).filter((e): e is [string, number | boolean] => e[1] !== null));

/** The trial's model usage as Inspect totals it per model (the trajectory's final figures). */
export function usageOf(trial: ExportTrial): Record<string, NonNullable<ReturnType<typeof modelUsage>>> {
  const m = trial.trajectory.final_metrics;
  const usage = modelUsage(m && { prompt_tokens: m.total_prompt_tokens, completion_tokens: m.total_completion_tokens, cached_tokens: m.total_cached_tokens, cost_usd: m.total_cost_usd });
  if (!usage || !usage.total_tokens) return {};
  const model = trial.result.record.agent.model ?? trial.trajectory.agent.model_name ?? trial.result.record.agent.name;
  return { [model]: usage };
}

/** Why the run ended, as Inspect names a limit: the time limit (timed out) or the turns (the step budget). */
function limitOf(trial: ExportTrial, timeoutS: number | null) {
  const { record } = trial.result;
  if (record.status === 'timed_out') return { type: 'time', limit: timeoutS ?? record.timings.agent_s ?? record.timings.total_s, reason: record.error ?? 'timed out' };
  if (record.run.step_limit_hit) return { type: 'turn', limit: record.step_budget, reason: `the step budget of ${record.step_budget} model turns was reached` };
  return undefined;
}

/**
 * One trial as an Inspect sample: its leg's id, the attempt as the epoch, the instruction as input, the
 * family's expected answer as target, the conversation, the answer the agent left as output, the score with
 * its answer and explanation (the whole score.json in its metadata), the transcript's events, usage and times.
 */
export function inspectSample(trial: ExportTrial, o: { model: string; scorer: string; timeoutS: number | null }) {
  const { record, score } = trial.result;
  const key = record.trial_id;
  const { messages, steps } = inspectMessages(trial.trajectory, key);
  // The task as the family says it in short (the whole instruction is the first message): what Inspect's list previews.
  const firstUser = messages.find((m) => m.role === 'user');
  const input = trial.outcome.question || (typeof firstUser?.content === 'string' ? firstUser.content : '');
  const answer = trial.outcome.answer;
  const sampleScore: InspectScore = { value: scoreValue(trial), answer, explanation: trial.outcome.explanation, metadata: { score } };
  const { events, events_data } = sampleEvents(trial, key, messages, steps, { model: o.model, scorer: o.scorer, input, score: sampleScore });
  const limit = limitOf(trial, o.timeoutS);
  const answerMessage = { id: idOf(`${key}/answer`), role: 'assistant', content: answer ?? '', source: 'generate', metadata: { aar: 'the answer the agent left (answer.txt, as scored), not a model reply' } };
  return {
    id: record.leg.id,
    epoch: record.attempt,
    input,
    target: trial.outcome.target,
    messages,
    output: { model: o.model, choices: [{ message: answerMessage, stop_reason: 'stop' }], completion: answer ?? '' },
    scores: { [o.scorer]: sampleScore },
    metadata: { trial_id: record.trial_id, agent: record.agent, status: record.status, error: record.error, ...leg(record.leg), step_budget: record.step_budget, run: record.run },
    store: {},
    events,
    model_usage: usageOf(trial),
    started_at: record.started_at,
    completed_at: record.finished_at,
    total_time: record.timings.total_s,
    working_time: record.timings.agent_s,
    uuid: idOf(`${key}/sample`),
    ...(limit ? { limit } : {}),
    error_retries: [],
    attachments: {},
    events_data,
  };
}

/** The family's own fields of trial.json's leg (AAR: variant, level), without its file and hash. */
function leg(l: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, file: _file, sha256: _sha, ...rest } = l;
  return rest;
}
