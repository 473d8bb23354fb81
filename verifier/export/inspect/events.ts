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
  const log = new EventLog(key, Date.parse(record.started_at));
  const endInit = log.span('init', 'init', 'init', record.started_at);
  const first = messages.find((m) => m.role === 'user');
  log.add(log.spanId('init'), record.started_at, {
    event: 'sample_init',
    sample: { input: o.input, target: trial.outcome.target, id: record.leg.id },
    state: { messages: first ? [first] : [], tools: [], tool_choice: null, store: {}, output: { model: o.model, choices: [], completion: '' }, completed: false, metadata: {} },
  });
  endInit();

  const endSolvers = log.span('solvers', 'solvers', 'solvers', record.started_at);
  const endAgent = log.span('agent', 'solver', record.agent.name, record.started_at, 'solvers');
  for (const step of steps) stepEvents(log, messages, step, o.model);
  const finished = new Date(Date.parse(record.finished_at)).toISOString();
  endAgent(finished);
  endSolvers(finished);

  const endScorers = log.span('scorers', 'scorers', 'scorers', finished);
  const endScorer = log.span('scorer', 'scorer', o.scorer, finished, 'scorers');
  log.add(log.spanId('scorer'), finished, { event: 'score', score: o.score, target: trial.outcome.target, intermediate: false, scorer: o.scorer });
  endScorer();
  endScorers();
  // The pool model events take their input from (none: no pool, as the sample's messages already hold them).
  const pooled = log.events.some((e) => e.event === 'model');
  return { events: log.events, events_data: { messages: pooled ? messages : [], calls: [] } };
}

/** A sample's events as they are added: ids derived from the sample's key, times relative to its start. */
class EventLog {
  readonly events: InspectEvent[] = [];

  constructor(
    private readonly key: string,
    private readonly start: number,
  ) {}

  spanId(id: string): string {
    return idOf(`${this.key}/span/${id}`);
  }

  add(spanId: string, ts: string | undefined, event: InspectEvent): void {
    const ms = ts ? Date.parse(ts) : this.start;
    this.events.push({ uuid: idOf(`${this.key}/event/${this.events.length}`), span_id: spanId, timestamp: new Date(ms).toISOString(), working_start: Math.max(0, (ms - this.start) / 1000), ...event });
  }

  /** Begins a span; the function returned ends it (at `ts` unless given another time). */
  span(id: string, type: string, name: string, ts: string | undefined, parent?: string): (endTs?: string) => void {
    const spanId = this.spanId(id);
    const parentId = parent ? this.spanId(parent) : undefined;
    this.add(spanId, ts, { event: 'span_begin', id: spanId, ...(parentId ? { parent_id: parentId } : {}), type, name });
    return (endTs = ts) => this.add(spanId, endTs, { event: 'span_end', id: spanId });
  }
}

/** One agent step in the agent's span: its model event (when the step called the model), then a tool event per result. */
function stepEvents(log: EventLog, messages: InspectMessage[], { step, reply, results }: StepMessages, model: string): void {
  if (reply === undefined) return;
  const agentSpan = log.spanId('agent');
  const message = messages[reply];
  if (step.llm_call_count !== 0) {
    const usage = modelUsage(step.metrics);
    log.add(agentSpan, step.timestamp, {
      event: 'model',
      model: step.model_name ?? model,
      input: [],
      input_refs: reply > 0 ? [[0, reply]] : [],
      tools: [],
      tool_choice: 'auto',
      config: {},
      output: { model: step.model_name ?? model, choices: [{ message, stop_reason: step.tool_calls?.length ? 'tool_calls' : 'stop' }], completion: step.message, ...(usage ? { usage } : {}) },
    });
  }
  for (const index of results) {
    const result = messages[index];
    const call = (step.tool_calls ?? []).find((c) => c.tool_call_id === result.tool_call_id);
    log.add(agentSpan, step.timestamp, {
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
