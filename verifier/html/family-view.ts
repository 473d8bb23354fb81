import { familyDeclaration } from '../../tasks/families.js';
import type { TaskFamily } from '../../tasks/family.js';
import { columns } from './model.js';
import type { HtmlFamilyView } from './view-types.js';

export type { ChartSpec, FamilyTrialPage, Headline, HtmlFamilyView } from './view-types.js';

/** The generic view: the family's Markdown columns as headline figures, its progress label per trial. */
export function genericHtmlView(family: TaskFamily<any, any, any>): HtmlFamilyView {
  const { label } = family.progress;
  return {
    columns: columns(['success', label, 'pct'], ['verdict', 'verdict', 'text']),
    cells: (score) => (score ? { success: family.progress.success(score), verdict: family.progress.verdict(score) } : { success: null, verdict: null }),
    headline(row) {
      const cells = family.report.markdownCells(row);
      return family.report.markdownHeader.slice(0, 4).map((h, i) => ({ key: h, label: h, value: cells[i], mean: null }));
    },
    charts: () => [],
    trialPage: () => ({ tables: [], callNotes: [] }),
  };
}

/**
 * The family's own view when its declaration says it has one (verifier/html/<name>/view.ts, found by the
 * family's name: no table to edit), else the generic view.
 */
export async function htmlViewOf(family: TaskFamily<any, any, any>): Promise<HtmlFamilyView> {
  if (!familyDeclaration(family.name).htmlView) return genericHtmlView(family);
  const module = (await import(`./${family.name}/view.js`)) as { htmlView: HtmlFamilyView };
  return module.htmlView;
}
