import path from 'node:path';
import type { Configuration } from './select.js';

/** One budget key on which configurations differ: its value per configuration label. */
export interface BudgetDifference {
  key: string;
  values: Record<string, string>;
}

export interface BudgetCheck {
  equal: boolean;
  differences: BudgetDifference[];
}

const UNRECORDED = '(not recorded: no job.json)';

function configValue(c: Configuration, keyPath: string): string {
  if (!c.job) return UNRECORDED;
  let value: unknown = c.job.config;
  for (const part of keyPath.split('.')) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
  return value === undefined ? 'none' : typeof value === 'string' ? value : JSON.stringify(value);
}

/** The replay store as an absolute folder: job.json keeps it relative to the config file. */
function storeValue(c: Configuration): string {
  if (!c.job) return UNRECORDED;
  const store = configValue(c, 'tools.store');
  if (store === 'none' || !c.job.configFile) return store;
  return path.resolve(path.dirname(c.job.configFile), store);
}

/** The legs of a configuration's trials, each with the sha256 of its file. */
function legsOf(c: Configuration): Map<string, string> {
  return new Map(c.trials.map((t) => [t.record.leg.id, t.record.leg.sha256]));
}

function legDifferences(configs: readonly Configuration[]): BudgetDifference[] {
  const legs = configs.map(legsOf);
  const out: BudgetDifference[] = [];
  const all = new Set(legs.flatMap((m) => [...m.keys()]));
  const conflicts = [...all].filter((id) => new Set(legs.map((m) => m.get(id)).filter((s) => s !== undefined)).size > 1).sort();
  if (conflicts.length) {
    out.push({
      key: 'legs (sha256)',
      values: Object.fromEntries(configs.map((c, i) => [c.label, `${conflicts.length} legs of the same id differ in content, e.g. ${conflicts[0]} ${legs[i].get(conflicts[0])?.slice(0, 12) ?? '(absent)'}`])),
    });
  }
  const sets = legs.map((m) => [...m.keys()].sort().join('\n'));
  if (new Set(sets).size > 1) {
    out.push({
      key: 'legs (set)',
      values: Object.fromEntries(configs.map((c, i) => [c.label, `${legs[i].size} legs, ${[...all].filter((id) => !legs[i].has(id)).length} of the others' missing`])),
    });
  }
  return out;
}

/** Step budgets per leg: the rule in job.json, and the budgets the trials actually had on the same legs. */
function stepBudgetDifference(configs: readonly Configuration[]): BudgetDifference | null {
  const perLeg = configs.map((c) => new Map(c.trials.map((t) => [t.record.leg.id, t.record.step_budget])));
  const shared = [...perLeg[0].keys()].filter((id) => perLeg.every((m) => m.has(id)));
  const differing = shared.filter((id) => new Set(perLeg.map((m) => m.get(id))).size > 1);
  if (!differing.length) return null;
  const example = differing[0];
  return {
    key: 'step budget per leg',
    values: Object.fromEntries(configs.map((c, i) => [c.label, `${differing.length} legs differ, e.g. ${example}: ${perLeg[i].get(example)}`])),
  };
}

/** The keys of equal budgets, each read per configuration. */
const KEYS: readonly [string, (c: Configuration) => string][] = [
  ['task family', (c) => c.family],
  ['step budget rule (budget.steps)', (c) => configValue(c, 'budget.steps')],
  ['timeout_s', (c) => configValue(c, 'timeout_s')],
  ['tools.mode', (c) => configValue(c, 'tools.mode')],
  ['tools.store', storeValue],
  ['tools.output_limit', (c) => configValue(c, 'tools.output_limit')],
  ['budget.max_tokens', (c) => configValue(c, 'budget.max_tokens')],
  ['budget.max_cost_usd', (c) => configValue(c, 'budget.max_cost_usd')],
  ['harness version', (c) => [...new Set(c.trials.map((t) => t.record.harness_version))].sort().join(', ')],
];

/**
 * Checks, not assumes, that configurations ran under the same budgets: the same legs by content, the step
 * budget rule and the budgets the trials had, the timeout, the tools' mode, store and output limit, the
 * token and cost caps, and the harness version. Every difference is listed.
 */
export function checkBudgets(configs: readonly Configuration[]): BudgetCheck {
  const differences: BudgetDifference[] = [];
  // Without job.json the budgets cannot be checked: that is a difference, even when every job lacks one.
  if (configs.some((c) => !c.job)) {
    differences.push({ key: 'job.json (the recorded budgets)', values: Object.fromEntries(configs.map((c) => [c.label, c.job ? 'present' : 'missing: budgets unknown'])) });
  }
  for (const [key, read] of KEYS) {
    const values = Object.fromEntries(configs.map((c) => [c.label, read(c)]));
    if (new Set(Object.values(values)).size > 1) differences.push({ key, values });
  }
  differences.push(...legDifferences(configs));
  const steps = configs.length > 1 ? stepBudgetDifference(configs) : null;
  if (steps) differences.push(steps);
  return { equal: differences.length === 0, differences };
}

export class UnequalBudgetsError extends Error {
  constructor(readonly check: BudgetCheck) {
    super(
      'the configurations did not run under equal budgets (compare anyway with --allow-unequal, which marks every table):\n' +
        check.differences.map((d) => `  ${d.key}: ${Object.entries(d.values).map(([label, v]) => `${label} = ${v}`).join('; ')}`).join('\n'),
    );
  }
}

/** The note every table carries when budgets differ and the comparison was forced. */
export function unequalNote(check: BudgetCheck): string {
  return `UNEQUAL BUDGETS (--allow-unequal): ${check.differences.map((d) => d.key).join(', ')} differ; these figures do not compare like with like.`;
}
