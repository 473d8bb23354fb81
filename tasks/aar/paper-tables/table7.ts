import type { Reducer } from '../../../common/reducers.js';
import type { Cell, DataTable } from '../../../common/table.js';
import { reducedNote } from './tables.js';
import { DIAMOND_MERGE } from './templates.js';
import { byVariant, faOf, legCount, legMean, rcrOf, type LegFactsCache, type PaperTrial } from './trials.js';

/** One trial's stops of one template: how many, and how many had their chain done. */
interface TemplateStops {
  trial: PaperTrial;
  stops: number;
  done: number;
}

/** A trial's tool stops grouped by template name, with the chain each name stands for. */
type TemplateCount = { chain: string; outsidePaper: boolean; stops: number; done: number };
function stopsByTemplate(trial: PaperTrial, legs: LegFactsCache, completed: boolean[]): Map<string, TemplateCount> {
  const out = new Map<string, TemplateCount>();
  legs.of(trial).templates.forEach((template, i) => {
    const entry = out.get(template.name) ?? { chain: template.chain, outsidePaper: template.outsidePaper, stops: 0, done: 0 };
    entry.stops++;
    if (completed[i]) entry.done++;
    out.set(template.name, entry);
  });
  return out;
}

/**
 * Table 7: FA per roadblock template (the paper's names where the leg tells them, see templates.ts), with
 * the template's own RCR: per trial, the share of that template's stops whose chain was done (METRICS.md's
 * RCR rule on those stops alone, re-read from the trial's tool log), averaged per leg over its attempts, then
 * over the legs containing it.
 */
export function table7(configs: readonly [string, readonly PaperTrial[]][], legs: LegFactsCache, reducer: Reducer = 'mean'): DataTable {
  const rows: Record<string, Cell>[] = [];
  const completedOf = new Map<PaperTrial, boolean[]>();
  const ambiguous = new Set<string>();
  const outside = new Set<string>();
  for (const [config, trials] of configs) {
    for (const [variant, inVariant] of byVariant(trials)) {
      const byTemplate = new Map<string, { chain: string; outsidePaper: boolean; entries: TemplateStops[] }>();
      for (const trial of inVariant) {
        let completed = completedOf.get(trial);
        if (!completed) completedOf.set(trial, (completed = legs.toolStopsCompleted(trial)));
        for (const [name, { chain, outsidePaper, stops, done }] of stopsByTemplate(trial, legs, completed)) {
          const group = byTemplate.get(name) ?? { chain, outsidePaper, entries: [] };
          group.entries.push({ trial, stops, done });
          byTemplate.set(name, group);
        }
      }
      for (const [template, { chain, outsidePaper, entries }] of [...byTemplate].sort(([a], [b]) => a.localeCompare(b))) {
        const ts = entries.map((e) => e.trial);
        if (template.includes(' | ')) ambiguous.add(`${template} (${chain})`);
        if (outsidePaper) outside.add(template);
        rows.push({
          config, variant, template, chain,
          legs: legCount(ts), trials: ts.length, stops: entries.reduce((a, e) => a + e.stops, 0),
          fa: faOf(ts, reducer), template_rcr: legMean(entries, (e) => e.trial.record.leg.id, (e) => e.done / e.stops), leg_rcr: rcrOf(ts),
        });
      }
    }
  }
  return {
    id: 'table7', title: 'Table 7: FA and RCR per roadblock template',
    columns: ['config', 'variant', 'template', 'chain', 'legs', 'trials', 'stops', 'fa', 'template_rcr', 'leg_rcr'], rows, percent: ['fa', 'template_rcr', 'leg_rcr'], reducedBy: reducer,
    notes: [
      reducedNote(reducer),
      "template: the paper's name (its Table 6), told by the tool chain and, where one chain serves several templates, the last step's output_key (or the weather `select`). legs: distinct legs containing the template; trials: their attempts; stops: the template's tool stops over those trials.",
      "fa: mean FA of those legs. template_rcr: the template's own RCR, per trial the share of its stops whose every chain step has a matching call (METRICS.md's rule). leg_rcr: those legs' RCR over all their tool stops. Each is a mean over legs of each leg's mean over its attempts.",
      ambiguous.size ? `Cannot be told apart (no output_key or select that names one), so named by every template that fits: ${[...ambiguous].sort().join('; ')}.` : "Every template was told apart (date_computation from math_conversion by output_key 'days' / 'converted', and so on).",
      ...(outside.size ? [`Not among the paper's 17 templates: ${[...outside].sort().join(', ')}${outside.has(DIAMOND_MERGE) ? " (diamond_merge: AAR-DAG's python_execute_code stop that combines two branches)" : ''}.`] : []),
    ],
  };
}
