import type { AarFigures } from '../../../tasks/aar/scoring/report.js';
import type { TrialScore } from '../../../tasks/aar/scoring/score.js';
import { estimateHeadline as estimate, num } from '../headline.js';
import type { HtmlFamilyView } from '../view-types.js';
import { columns } from '../model.js';
import { aarCharts } from './charts.js';
import { goldenTraceOfTrial } from './golden-trace.js';

const DIAGNOSIS_LABELS: Record<string, string> = { timeout: 'timed out', step_limit: 'step limit', agent_error: 'agent crashed', tool_use: 'tool use' };
const RUN_ENDINGS = new Set(['timeout', 'step_limit', 'agent_error']);

/**
 * Why a trial is not correct, in words: how the run ended when it ended early, else the paper's diagnosis.
 * Scores written before the diagnosis knew run endings still show a timeout or step limit first.
 */
function diagnosisOf(s: TrialScore): string {
  if (s.fa === 1) return s.shortcut ? 'correct (shortcut)' : 'correct';
  const known = s.diagnosis !== null && RUN_ENDINGS.has(s.diagnosis);
  const ending = known ? null : s.timed_out ? 'timed out' : s.step_limit_hit ? 'step limit' : null;
  const why = s.diagnosis === null ? null : (DIAGNOSIS_LABELS[s.diagnosis] ?? s.diagnosis);
  return [ending, why, s.near_miss ? 'near miss' : null].filter(Boolean).join(', ');
}

/** AAR in the HTML report: FA/PVR/RCR everywhere, the paper's charts, the golden trace on trial pages. */
export const htmlView: HtmlFamilyView = {
  columns: columns(
    ['fa', 'FA', 'int'], ['pvr', 'PVR', 'pct'], ['rcr', 'RCR', 'pct'], ['answer', 'answer / expected', 'text'],
    ['steps', 'steps', 'int'], ['tool_calls', 'tool calls', 'int'], ['cost_usd', 'cost', 'usd'],
    ['diagnosis', 'diagnosis', 'text'],
  ),
  cells(score) {
    if (!score) return { fa: null, pvr: null, rcr: null, answer: null, steps: null, tool_calls: null, cost_usd: null, diagnosis: 'not scored (infrastructure error)' };
    const s = score as TrialScore;
    return {
      fa: s.fa,
      pvr: s.pvr,
      rcr: s.rcr,
      answer: `${s.agent_answer ?? '∅'} / ${s.expected_answer}`,
      steps: s.steps,
      tool_calls: s.tool_calls,
      cost_usd: s.cost_usd,
      diagnosis: diagnosisOf(s),
    };
  },
  headline(row) {
    const r = row as unknown as AarFigures;
    return [
      estimate('fa', 'FA', r.fa),
      estimate('pvr', 'PVR', r.pvr),
      estimate('rcr', 'RCR', r.rcr),
      { key: 'steps', label: 'steps / trial', value: num(r.steps), mean: r.steps },
      { key: 'tool_calls', label: 'tool calls / trial', value: num(r.tool_calls), mean: r.tool_calls },
      { key: 'cost_usd', label: 'cost / trial', value: r.cost_usd === null ? '–' : `$${r.cost_usd.toFixed(4)}`, mean: r.cost_usd },
      { key: 'wall_s', label: 'wall time / trial', value: r.wall_s === null ? '–' : `${r.wall_s.toFixed(1)} s`, mean: r.wall_s },
    ];
  },
  charts: (results) => aarCharts(results),
  trialPage: (trial, lines) => goldenTraceOfTrial(trial.dir, lines),
};
