import type { ExportTrial } from '../types.js';
import { idOf, type InspectMessage, type StepMessages } from './messages.js';

/** One event of an Inspect sample's transcript (inspect_ai.event), as its JSON log holds it. */
type InspectEvent = Record<string, unknown> & { event: string };

/** What the score event and the sample's scores say (Inspect's Score). */
export interface InspectScore {
  value: Record<string, number | boolean>;
  answer: string | null;
  explanation: string;
  metadata: Record<string, unknown>;
}

/** A step's token counts as Inspect's ModelUsage (input without the cached part, as Inspect counts it). */
export function modelUsage(m: { prompt_tokens?: number; completion_tokens?: number; cached_tokens?: number; cost_usd?: number } | undefined) {
  if (!m || (m.prompt_tokens === undefined && m.completion_tokens === undefined)) return undefined;
  const cached = m.cached_tokens ?? 0;
  const input = (m.prompt_tokens ?? 0) - cached;
  const output = m.completion_tokens ?? 0;
  return { input_tokens: input, output_tokens: output, total_tokens: input + cached + output, ...(cached ? { input_tokens_cache_read: cached } : {}), ...(m.cost_usd === undefined ? {} : { total_cost: m.cost_usd }) };
}

/**
 * A trial's transcript as Inspect's events: the sample's start (init), the agent's run as one solver span
 * (a model event per model reply, its input the conversation before it by reference into `events_data`, as
 * Inspect writes it; a tool event per call with its result), and the scorer's span with the score. Times are
 * the trajectory's, else the trial's start.
 */
export function sampleEvents(
  trial: ExportTrial,
  key: string,
  messages: InspectMessage[],
  steps: StepMessages[],
  o: { model: string; scorer: string; input: string; score: InspectScore },
): { events: InspectEvent[]; events_data: { messages: InspectMessage[]; calls: unknown[] } } {
  const { record } = trial.result;
  const start = Date.parse(record.started_at);
  const end = Date.parse(record.finished_at);
  const events: InspectEvent[] = [];
  const at = (ts: string | undefined) => {
    const ms = ts ? Date.parse(ts) : start;
    return { timestamp: new Date(ms).toISOString(), working_start: Math.max(0, (ms - start) / 1000) };
  };
  const add = (spanId: string, ts: string | undefined, event: Record<string, unknown> & { event: string }): void =>
    void events.push({ uuid: idOf(`${key}/event/${events.length}`), span_id: spanId, ...at(ts), ...event });
  const span = (id: string, type: string, name: string, ts: string | undefined, parent?: string): ((endTs?: string) => void) => {
    const spanId = idOf(`${key}/span/${id}`);
    const parentId = parent ? idOf(`${key}/span/${parent}`) : undefined;
    add(spanId, ts, { event: 'span_begin', id: spanId, ...(parentId ? { parent_id: parentId } : {}), type, name });
    return (endTs = ts) => add(spanId, endTs, { event: 'span_end', id: spanId });
  };

  const endInit = span('init', 'init', 'init', record.started_at);
  const first = messages.find((m) => m.role === 'user');
  add(idOf(`${key}/span/init`), record.started_at, {
    event: 'sample_init',
    sample: { input: o.input, target: trial.outcome.target, id: record.leg.id },
    state: { messages: first ? [first] : [], tools: [], tool_choice: null, store: {}, output: { model: o.model, choices: [], completion: '' }, completed: false, metadata: {} },
  });
  endInit();

  const endSolvers = span('solvers', 'solvers', 'solvers', record.started_at);
  const endAgent = span('agent', 'solver', record.agent.name, record.started_at, 'solvers');
  const agentSpan = idOf(`${key}/span/agent`);
  for (const { step, reply, results } of steps) {
    if (reply === undefined) continue;
    const message = messages[reply];
    if (step.llm_call_count !== 0) {
      const usage = modelUsage(step.metrics);
      add(agentSpan, step.timestamp, {
        event: 'model',
        model: step.model_name ?? o.model,
        input: [],
        input_refs: reply > 0 ? [[0, reply]] : [],
        tools: [],
        tool_choice: 'auto',
        config: {},
        output: { model: step.model_name ?? o.model, choices: [{ message, stop_reason: step.tool_calls?.length ? 'tool_calls' : 'stop' }], completion: step.message, ...(usage ? { usage } : {}) },
      });
    }
    for (const index of results) {
      const result = messages[index];
      const call = (step.tool_calls ?? []).find((c) => c.tool_call_id === result.tool_call_id);
      add(agentSpan, step.timestamp, {
        event: 'tool',
        type: 'function',
        id: call?.tool_call_id ?? result.id,
        function: call?.function_name ?? String(result.function ?? 'tool'),
        arguments: call?.arguments ?? {},
        result: result.content,
        events: [],
        message_id: result.id,
      });
    }
  }
  const finished = new Date(end).toISOString();
  endAgent(finished);
  endSolvers(finished);

  const endScorers = span('scorers', 'scorers', 'scorers', finished);
  const endScorer = span('scorer', 'scorer', o.scorer, finished, 'scorers');
  add(idOf(`${key}/span/scorer`), finished, { event: 'score', score: o.score, target: trial.outcome.target, intermediate: false, scorer: o.scorer });
  endScorer();
  endScorers();
  // The pool model events take their input from (none: no pool, as the sample's messages already hold them).
  const pooled = events.some((e) => e.event === 'model');
  return { events, events_data: { messages: pooled ? messages : [], calls: [] } };
}
