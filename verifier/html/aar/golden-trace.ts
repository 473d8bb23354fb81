import { canonicalPage } from '../../../tools/wikipedia/page-identity.js';
import { readTrialText, TRIAL_FILES } from '../../../trial/folder.js';
import { rcrStepMatches } from '../../../tasks/aar/scoring/tally.js';
import { valueFoundInResults } from '../../../tasks/aar/scoring/reference.js';
import { legView } from '../../../tasks/aar/scoring/score.js';
import { parseToolLog, type LoggedCall } from '../../../tasks/aar/scoring/tool-log.js';
import { LegSchema, dependenciesOf, type Leg } from '../../../tasks/aar/schema.js';
import type { GoldenStep } from '../../../tasks/aar/scoring/leg-view.js';
import { columns, type Cell, type DetailTable } from '../model.js';
import type { FamilyTrialPage } from '../view-types.js';

const isObject = (v: unknown): boolean => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where one stop of the golden trace shows up in the agent's tool calls (1-based call numbers). */
interface StopTrace {
  pageCalls: number[] | null;
  /** Per golden tool step: the calls that match it by the paper's RCR rule. */
  stepCalls: { label: string; calls: number[] }[];
  valueCalls: number[] | null;
}

const list = (calls: number[]): string => calls.map((c) => `#${c}`).join(' ');
const pageTitle = (url: string): string => decodeURIComponent(url.split('/').pop() ?? url).replaceAll('_', ' ');

function stepLabel(step: GoldenStep, raw: unknown): string {
  const args = isObject(raw) ? Object.entries(raw as Record<string, unknown>).filter(([k]) => !k.startsWith('__')) : [];
  const shown = args.map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`).join(', ');
  return `${String(step.toolName)}(${shown.length > 120 ? shown.slice(0, 120) + '…' : shown})`;
}

/**
 * The stops of the leg beside what the agent did: for each stop its golden page, tool chain and value, and
 * the tool calls that visited the page, matched a chain step (the RCR rule) and showed the value (the
 * intermediate-value rule). The golden steps and values come from the scoring's own leg view, so the page
 * agrees with the score.
 */
export function goldenTrace(legText: string, leg: Leg, lines: readonly string[]): FamilyTrialPage {
  const { traces, callNotes, callStops } = traceStops(legText, leg, lines);
  const table: DetailTable = {
    title: `Golden trace (${leg.stops.length} stops, passcode ${leg.passcode})`,
    note: 'Each stop of the leg beside the agent: the tool calls (#n, below) that visited its page, matched its tool steps (the RCR rule) and showed its value.',
    columns: columns(
      ['stop', 'stop', 'int'], ['type', 'type', 'text'], ['after', 'after', 'text'],
      ['target', 'what to find', 'text'], ['golden', 'golden path', 'text'], ['value', 'value', 'text'],
      ['agent', 'what the agent did', 'text'],
    ),
    rows: leg.stops.map((stop, i) => stopRow(leg, stop, traces[i])),
    marks: traces.map(stopMark),
    rowIds: leg.stops.map((s) => `stop-${s.index}`),
  };
  return { tables: [table], callNotes: callNotes.map((n) => (n.length ? n.join('; ') : null)), callStops: callStops.map((s) => [...s]) };
}

/** Each stop's trace in the tool calls, and per call (in log order) what it did for which stops. */
function traceStops(legText: string, leg: Leg, lines: readonly string[]): { traces: StopTrace[]; callNotes: string[][]; callStops: Set<number>[] } {
  const view = legView(legText);
  const parsed: (LoggedCall | undefined)[] = lines.map((line) => parseToolLog(line).calls[0]);
  // As scoring reads them: refused calls credit nothing, and only served outputs show values.
  const calls = parsed.map((c) => (c && !c.refused ? c : undefined));
  const valueCalls = parsed.map((c) => (c?.servedOutput ? c : undefined));
  const callNotes: string[][] = lines.map(() => []);
  const callStops: Set<number>[] = lines.map(() => new Set());
  const note = (call: number, what: string, stop: number): void => {
    callNotes[call - 1].push(`${what} of stop ${stop}`);
    callStops[call - 1].add(stop);
  };
  const allPreviews = valueCalls.map((c) => c?.preview ?? '').join(' ');
  let stepAt = 0;
  let valueAt = 0;
  const traces = leg.stops.map((stop) => {
    const trace: StopTrace = { pageCalls: null, stepCalls: [], valueCalls: null };
    if (stop.stop_type === 'page' && stop.page_url) {
      const page = canonicalPage(stop.page_url) ?? stop.page_url;
      trace.pageCalls = calls.flatMap((c, i) => (c?.pages.includes(page) ? [i + 1] : []));
      for (const n of trace.pageCalls) note(n, 'page', stop.index);
    }
    if (stop.stop_type === 'tool' || stop.stop_type === 'compute') {
      const chain = stop.bridge.tool_chain.filter(isObject);
      for (const raw of chain) {
        const step = view.goldenSteps[stepAt++];
        if (!step) break;
        const matching = calls.flatMap((c, i) => (c && rcrStepMatches(step, c) ? [i + 1] : []));
        trace.stepCalls.push({ label: stepLabel(step, raw.arguments), calls: matching });
        for (const n of matching) note(n, 'step', stop.index);
      }
    }
    if (stop.extracted_value !== null && stop.extracted_value !== undefined) {
      const value = view.expectedValues[valueAt++];
      // Most values are in no preview: one look at them all first, then call by call where it is.
      const anywhere = value !== undefined && valueFoundInResults(value, allPreviews);
      trace.valueCalls = anywhere ? valueCalls.flatMap((c, i) => (c && valueFoundInResults(value, c.preview) ? [i + 1] : [])) : [];
      for (const n of trace.valueCalls) note(n, 'value', stop.index);
    }
    return trace;
  });
  return { traces, callNotes, callStops };
}

/**
 * A stop the agent works out in its head (reason, or compute without a tool) has nothing to find in the
 * tool log; its value seen there is shown, but its absence is no miss.
 */
const inTools = (trace: StopTrace): boolean => trace.pageCalls !== null || trace.stepCalls.length > 0;

/** The stop's row mark: every check found (ok), some (partial), none (miss), or nothing to check (muted). */
function stopMark(trace: StopTrace): string {
  const checks = [
    trace.pageCalls && trace.pageCalls.length > 0,
    ...trace.stepCalls.map((s) => s.calls.length > 0),
    ...(trace.valueCalls && inTools(trace) ? [trace.valueCalls.length > 0] : []),
  ].filter((c) => c !== null);
  const passed = checks.filter(Boolean).length;
  return !checks.length ? 'muted' : passed === checks.length ? 'ok' : passed ? 'partial' : 'miss';
}

/** The stop's row: its golden path and value beside what the agent did for it. */
function stopRow(leg: Leg, stop: Leg['stops'][number], trace: StopTrace): Record<string, Cell> {
  const golden = [
    stop.page_url && stop.stop_type === 'page' ? `page: ${pageTitle(stop.page_url)}` : null,
    ...trace.stepCalls.map((s) => `tool: ${s.label}`),
    stop.reason_transform ? `reason: ${stop.reason_transform}` : null,
    stop.stop_type === 'compute' && stop.bridge.expression ? `compute: ${stop.bridge.expression}` : null,
  ].filter(Boolean);
  const did = [
    trace.pageCalls ? (trace.pageCalls.length ? `visited ${list(trace.pageCalls)}` : 'page not visited') : null,
    ...trace.stepCalls.map((s) => (s.calls.length ? `${s.label.split('(')[0]} matched ${list(s.calls)}` : `${s.label.split('(')[0]} not matched`)),
    trace.valueCalls ? (trace.valueCalls.length ? `value seen in ${list(trace.valueCalls)}` : inTools(trace) ? 'value never seen' : 'worked out, not looked up (value in no tool result)') : null,
  ].filter(Boolean);
  return {
    stop: stop.index,
    type: stop.stop_type,
    after: dependenciesOf(leg, stop).join(', ') || null,
    target: stop.extraction_target,
    golden: golden.join('\n') || null,
    value: typeof stop.extracted_value === 'string' ? stop.extracted_value : JSON.stringify(stop.extracted_value),
    agent: did.join('\n') || null,
  };
}

/** The golden trace of a stored trial, from its leg.json; a note instead when the leg cannot be read. */
export function goldenTraceOfTrial(dir: string, lines: readonly string[]): FamilyTrialPage {
  const text = readTrialText(dir, TRIAL_FILES.leg);
  if (text === null) return { tables: [], callNotes: [] };
  const leg = readLeg(text);
  return typeof leg === 'string' ? unreadable(`leg.json: ${leg}`) : goldenTrace(text, leg, lines);
}

/** Legs by their text: a job holds each leg once per agent and attempt. */
const legs = new Map<string, Leg | string>();

/** The leg, or why it cannot be read. */
function readLeg(text: string): Leg | string {
  let leg = legs.get(text);
  if (leg === undefined) {
    try {
      const parsed = LegSchema.safeParse(JSON.parse(text));
      leg = parsed.success ? parsed.data : `${parsed.error.issues[0].path.join('.')}: ${parsed.error.issues[0].message}`;
    } catch (error) {
      leg = (error as Error).message;
    }
    if (legs.size >= 2048) legs.delete(legs.keys().next().value as string);
    legs.set(text, leg);
  }
  return leg;
}

const unreadable = (why: string): FamilyTrialPage => ({
  tables: [{ title: 'Golden trace', note: `Not shown: ${why}`, columns: [], rows: [] }],
  callNotes: [],
});
