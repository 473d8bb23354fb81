import type { WikiraceFigures } from '../../../tasks/wikirace/scoring/report.js';
import { endText, type GameScore } from '../../../tasks/wikirace/scoring/score.js';
import { columns } from '../model.js';
import { estimateHeadline as estimate, num, pct } from '../headline.js';
import type { HtmlFamilyView } from '../view-types.js';
import { wikiraceCharts } from './charts.js';
import { pathFigure } from './path-figure.js';


/** LLM-WikiRace in the HTML report: success, moves and loops per game; the paper's charts in the overview. */
export const htmlView: HtmlFamilyView = {
  columns: columns(
    ['success', 'success', 'int'], ['moves', 'moves', 'int'], ['optimal', 'optimal', 'int'], ['max_visits', 'max visits', 'int'],
    ['model_calls', 'model calls', 'int'], ['cost_usd', 'cost', 'usd'], ['verdict', 'verdict', 'text'],
  ),
  cells(score) {
    if (!score) return { success: null, moves: null, optimal: null, max_visits: null, model_calls: null, cost_usd: null, verdict: 'not scored (infrastructure error)' };
    const s = score as GameScore;
    const verdict = s.success ? `reached in ${s.steps}` : `not reached: ${endText(s)}${s.looped ? ', looped' : ''}${s.problem ? ` (${s.problem})` : ''}`;
    return { success: s.success, moves: s.steps, optimal: s.optimal_length, max_visits: s.max_visits, model_calls: s.model_calls, cost_usd: s.cost_usd, verdict };
  },
  headline(row) {
    const r = row as unknown as WikiraceFigures;
    return [
      estimate('success', 'success', r.success),
      { key: 'suboptimal_steps', label: 'suboptimal moves', value: num(r.suboptimal_steps, 2), mean: r.suboptimal_steps },
      { key: 'steps', label: 'moves / game', value: num(r.steps), mean: r.steps },
      { key: 'loop_rate', label: 'loop frequency', value: pct(r.loop_rate), mean: r.loop_rate },
      { key: 'recovery_rate', label: 'recovery', value: pct(r.recovery_rate), mean: r.recovery_rate },
      { key: 'tokens_per_step', label: 'tokens / step', value: num(r.tokens_per_step, 0), mean: r.tokens_per_step },
    ];
  },
  charts: (results) => wikiraceCharts(results),
  async trialPage(trial) {
    const figure = await pathFigure(trial);
    return { tables: [], callNotes: [], figures: figure ? [figure] : [] };
  },
};
