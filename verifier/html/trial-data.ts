import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { familyOfRecord } from '../../tasks/registry.js';
import { sliceOfTrial } from '../../tasks/slices.js';
import { readTrialText, TRIAL_FILES } from '../../trial/folder.js';
import type { TrialResult } from '../results.js';
import type { HtmlFamilyView } from './family-view.js';
import { configLabel } from './labels.js';
import type { Cell, TrialDetail, TrialRow } from './model.js';
import { buildConversation, readModelLog } from './conversation/timeline.js';
import { listTrialFiles } from './raw-files.js';
import { DEFAULT_PREVIEW_CHARS, logFileLines, modelTurnsTable, SHOWN_LINES, toolCallsTable } from './trial-tables.js';

/** Characters of the end of the agent's own output a trial page shows. */
const AGENT_OUTPUT_CHARS = 3000;

export function trialRow(trial: TrialResult, view: HtmlFamilyView): TrialRow {
  const { record } = trial;
  const [variant, level] = sliceOfTrial(familyOfRecord(record).sliceKeys, trial);
  return {
    id: record.trial_id,
    agent: configLabel(record.agent.id, record.agent.model),
    task: record.leg.id,
    variant,
    level,
    attempt: record.attempt,
    status: record.status,
    correct: trial.score ? familyOfRecord(record).progress.success(trial.score) === 1 : null,
    wall_s: record.timings.total_s,
    cost_usd: record.run.cost_usd ?? null,
    cells: view.cells(trial.score),
  };
}

/** The agent's stdout log (the adapters' agent/stdout.log, or any *.log there), its last characters. */
function agentOutput(dir: string): string | null {
  const agentDir = path.join(dir, TRIAL_FILES.agentDir);
  if (!existsSync(agentDir)) return null;
  const logs = readdirSync(agentDir).filter((f) => /\.(log|txt)$/.test(f) && statSync(path.join(agentDir, f)).isFile()).sort((a, b) => (a === 'stdout.log' ? -1 : b === 'stdout.log' ? 1 : a.localeCompare(b)));
  if (!logs.length) return null;
  const text = readTrialText(agentDir, logs[0]) ?? '';
  const tail = text.length > AGENT_OUTPUT_CHARS ? `… ${text.slice(-AGENT_OUTPUT_CHARS)}` : text;
  return `${logs[0]}:\n${tail}`;
}

const counts = (byKey: Record<string, number>): string => Object.entries(byKey).map(([k, n]) => `${k.replace(/_/g, ' ')} ${n}`).join(', ');

/** What the gateway counted without logging it, and what it refused at the door (trial.json), when there was any. */
function boundFacts(record: TrialResult['record']): [string, Cell][] {
  const facts: [string, Cell][] = [];
  const tools = record.tool_log_bound;
  if (tools) facts.push(['tool calls refused past the log bound, not logged', `${tools.calls_not_logged} (bound: ${tools.reached})`]);
  const model = record.model_log_bound;
  if (model) facts.push([`model requests not logged (other than turns, past the first ${model.other_lines_max})`, `${model.requests_not_logged}: ${counts(model.by_kind)}`]);
  const refused = record.requests_refused;
  if (refused) facts.push(['requests refused unread (trial over a gateway limit)', Object.entries(refused).map(([route, by]) => `${route}: ${counts(by)}`).join('; ')]);
  return facts;
}

export async function trialDetail(trial: TrialResult, view: HtmlFamilyView, previewChars?: number): Promise<TrialDetail> {
  const { record, dir } = trial;
  const { lines, total } = logFileLines(path.join(dir, TRIAL_FILES.toolLog));
  const family = await view.trialPage(trial, lines);
  const modelLog = readModelLog(path.join(dir, TRIAL_FILES.modelLog), SHOWN_LINES);
  const facts: [string, Cell][] = [
    ['agent', configLabel(record.agent.id, record.agent.model)],
    ['agent version', record.agent.version],
    ['task', record.leg.id],
    ['attempt', record.attempt],
    ['status', record.status],
    ['steps (budget)', `${record.run.steps ?? '–'} (${record.step_budget})`],
    ['step budget reached', record.run.step_limit_hit],
    ['exit code', record.run.exit_code],
    ['input / output / cached tokens', [record.run.input_tokens, record.run.output_tokens, record.run.cached_tokens].map((t) => t ?? '–').join(' / ')],
    ['cost (USD)', record.run.cost_usd === null || record.run.cost_usd === undefined ? null : Number(record.run.cost_usd.toFixed(6))],
    ['time: total / agent (s)', `${record.timings.total_s.toFixed(1)} / ${record.timings.agent_s?.toFixed(1) ?? '–'}`],
    ['started', record.started_at],
    ['seed', record.seed],
    ['harness', record.harness_version],
    ...boundFacts(record),
  ];
  const familyOf = familyOfRecord(record);
  return {
    id: record.trial_id,
    job: record.job,
    dir,
    instruction: readTrialText(dir, TRIAL_FILES.instruction),
    answer: readTrialText(dir, TRIAL_FILES.answer),
    error: record.error,
    score: trial.score as Record<string, unknown> | null,
    verdict: trial.score ? familyOf.progress.verdict(trial.score) : null,
    facts,
    // The previews once, in the conversation; the table of the calls without them.
    tables: [...family.tables, toolCallsTable(lines, family.callNotes, 0, total), modelTurnsTable(modelLog.lines, record.model_log_bound?.requests_not_logged)],
    agentOutput: agentOutput(dir),
    conversation: buildConversation({ modelLines: modelLog.lines, modelTotal: modelLog.total, toolLines: lines, toolTotal: total, notes: family.callNotes, stops: family.callStops ?? [], previewChars: previewChars ?? DEFAULT_PREVIEW_CHARS }),
    figures: family.figures ?? [],
    files: listTrialFiles(dir),
  };
}
