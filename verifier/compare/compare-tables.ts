import type { Cell, DataTable } from '../../common/table.js';
import type { SliceKeys } from '../../tasks/family.js';
import { unequalNote } from './budgets.js';
import type { CompareResult, PairedRow } from './result.js';
import { BOOTSTRAP_MIN_N, SMALL_N } from './paired-test.js';

const pct = (v: number): string => `${(100 * v).toFixed(1)}`;

/** The primary row's power figure in words; where there is none, why (a '-' would read as a number missing). */
const mdeText = (p: PairedRow): string =>
  p.mde_80 !== null
    ? `${pct(p.mde_80)} pp on ${p.n} legs`
    : p.n < 2
      ? `none on ${p.n} ${p.n === 1 ? 'leg' : 'legs'} (two or more are needed to measure a spread)`
      : `not measurable on these ${p.n} legs: every leg differs by the same amount, so there is no spread to measure it from`;

/** The models of the configurations, as a note for tables whose rows name configurations only. */
export function modelsNote(configurations: readonly { label: string; model: string | null }[]): string {
  return `Models: ${configurations.map((c) => `${c.label} = ${c.model ?? '(none recorded)'}`).join('; ')}.`;
}

/** Paired rows as the output has them: the slice fields under the family's names, in the same place. */
export function namedSlices(rows: readonly PairedRow[], [coarse, fine]: SliceKeys): Record<string, Cell>[] {
  return rows.map(({ a, b, metric, variant, level, ...rest }) => ({ a, b, metric, [coarse]: variant, [fine]: level, ...rest }));
}

/** compare's own tables: configurations, budgets, paired differences, effort, frontier; every one carries its notes. */
export function compareTables(r: Omit<CompareResult, 'tables'>, successName: string, [coarse, fine]: SliceKeys, stepsNote?: string): DataTable[] {
  const unequal = r.unequal ? [unequalNote(r.budgets)] : [];
  const warning = r.infraWarning ? [r.infraWarning] : [];
  const models = modelsNote(r.configurations);
  const pairNotes = r.pairing.pairs.map(
    (p) => `${p.a} vs ${p.b}: paired on the ${p.sharedLegs} legs both have a value for; left out: ${p.notInBoth} run by only one, ${Object.entries(p.lostToInfra).map(([l, n]) => `${n} lost to infrastructure errors by ${l}`).join(', ')}.`,
  );
  const primaries = r.paired.filter((p) => p.role === 'primary');
  const secondaries = r.paired.length - primaries.length;
  const k = r.configurations.length;
  const spendPer = r.frontier[0]?.spend_per ?? 'attempt';
  const perText = spendPer === 'leg' ? `per leg (all its attempts: ${r.reducer} reads every one)` : 'per attempt (the mean reducer\'s value is one attempt\'s success)';
  const disagreeing = r.paired.filter((p) => p.interval_vs_test).length;
  return [
    {
      id: 'configurations', title: 'Configurations and the legs they lost to infrastructure errors', percent: ['infra_rate'],
      columns: ['label', 'agent', 'model', 'trials', 'legs_run', 'legs_lost_to_infra', 'infra_rate', 'attempts_per_leg', 'attempts_lost_to_infra'],
      rows: r.configurations.map((c) => ({ label: c.label, agent: c.agent, model: c.model, trials: c.trials, legs_run: c.legs_run, legs_lost_to_infra: c.legs_lost_to_infra, infra_rate: c.infra_rate, attempts_per_leg: c.attempts_per_leg, attempts_lost_to_infra: c.attempts_lost_to_infra })),
      notes: [
        ...unequal, ...warning,
        `The leg is the unit: a leg's attempts are reduced to one value first (${r.reducer} for ${successName}; PVR-like metrics by their mean). A leg is lost to infrastructure errors when every attempt of it was one; attempts_lost_to_infra counts the others' lost attempts.`,
      ],
    },
    {
      id: 'budgets', title: r.budgets.equal ? 'Budgets: checked and equal' : 'Budgets: checked, and they DIFFER', percent: [],
      columns: ['key', 'equal', ...r.configurations.map((c) => c.label)],
      rows: r.budgets.checked.map((d) => ({ key: d.key, equal: r.budgets.differences.some((x) => x.key === d.key) ? 'NO' : 'yes', ...d.values })),
      notes: [
        ...unequal, models,
        "Every meaning key each job recorded in its job.json (the rerun rule's list, trial/job-meaning.ts; an older job.json without `meaning` has it derived from its recorded config, never re-parsed with today's schema), the tools' world, the legs by the content of their leg.json now, the step budgets the trials had, the harness version, and the attempts per leg when the reducer reads every attempt (pass@k, pass^k).",
        'Not budgets, so not checked: seed (another draw of the same agent), images.* (how images are built), models.record_conversation (what is logged), and attempts under the mean reducer (a leg\'s mean estimates one attempt\'s success however many ran).',
      ],
    },
    {
      id: 'paired', title: 'Paired differences (b - a) on each pair\'s shared legs, with 95% intervals', percent: ['a_mean', 'b_mean', 'diff', 'lo', 'hi', 'mde_80'], pvalues: ['p_value', 'p_holm'],
      columns: ['a', 'b', 'metric', coarse, fine, 'role', 'n', 'small_n', 'reducer', 'attempts', 'a_mean', 'b_mean', 'diff', 'lo', 'hi', 'interval', 'test', 'p_value', 'p_holm', 'interval_vs_test', 'discordant_a', 'discordant_b', 'mde_80', 'mde_80_method'],
      rows: namedSlices(r.paired, [coarse, fine]),
      notes: [
        ...unequal, ...warning, ...pairNotes, models,
        `n counts legs, not trials. Intervals: Newcombe's hybrid score interval where every leg's value is 0 or 1; otherwise the seeded paired bootstrap over legs from ${BOOTSTRAP_MIN_N} legs and Student's t below. Tests: exact McNemar on 0/1 legs; a paired sign-flip test on per-leg means otherwise (exact when they are fractions of the attempts, seeded Monte Carlo for PVR-like values).`,
        `Multiplicity: two Holm families, p_holm adjusted within each. Primary: ${successName} over each pair's shared legs, one row per pair (${primaries.length} for ${k} configurations${k > 2 ? '' : ': one test, p_holm = p_value'}). Secondary: the other ${secondaries} rows (slices, other metrics), rows of the same pair and metric on the same legs counted once. small_n: fewer than ${SMALL_N} legs.`,
        `interval_vs_test: set where the 95% interval and the test at alpha 0.05 disagree (they are built differently and can, at small n); the test decides significance${disagreeing ? ` (${disagreeing} rows here)` : ''}.`,
        `mde_80 (primary rows): the smallest true ${successName} difference the row's own test detects with 80% power at alpha 0.05 on its n legs, what else is true held as measured. exact: the exact McNemar test's power computed by enumerating every outcome through that test, at the measured share of legs on which the two differ. approximate (t): the sign-flip test on per-leg means, its power approximated with t quantiles on n - 1 df and the spread of its statistic (the per-leg sd measured; within 2 points of a simulation in bench:plan-power). Empty where no difference reaches 80% (too few legs, or the two never differ).`,
      ],
    },
    {
      id: 'effort', title: `Cost and effort per leg and per attempt (the ${r.pairing.sharedLegs} legs every configuration has a value for)`, percent: [],
      columns: ['label', 'model', 'legs', 'trials', 'cost_usd_per_leg', 'tokens_per_leg', 'input_tokens_per_leg', 'output_tokens_per_leg', 'wall_s_per_leg', 'cost_usd_per_attempt', 'tokens_per_attempt', 'wall_s_per_attempt', 'total_cost_usd', 'agent_hours', 'steps', 'tool_calls'],
      rows: r.effort.map((e, i) => ({ ...e, model: r.configurations[i].model })),
      notes: [...unequal, '*_per_leg: every scored attempt of a leg summed (a leg counts where every attempt\'s figure is known), then the mean over legs; *_per_attempt: the mean over attempts. steps and tool_calls: per attempt.', ...(stepsNote ? [stepsNote] : [])],
    },
    {
      id: 'frontier', title: `Cost-accuracy frontier (${successName} vs spend ${spendPer === 'leg' ? 'per leg' : 'per attempt'}, on the ${r.pairing.sharedLegs} legs every configuration has a value for)`, percent: ['success', 'success_lo', 'success_hi'],
      columns: ['label', 'model', 'axis', 'spend_per', 'spend', 'legs', 'success', 'success_lo', 'success_hi', 'dominated', 'dominated_by', 'not_significantly_beaten_by'],
      rows: r.frontier.map((f, i) => ({
        label: f.label, model: r.configurations[i].model, axis: f.axis, spend_per: f.spend_per, spend: f.spend, legs: f.legs, success: f.success, success_lo: f.success_lo, success_hi: f.success_hi,
        dominated: f.dominated_by.length ? 'yes' : 'no', dominated_by: f.dominated_by.join(', ') || null, not_significantly_beaten_by: f.not_significantly_beaten_by.join(', ') || null,
      })),
      notes: [
        ...unequal,
        `Success, its 95% interval (Wilson for 0/1 legs) and every dominance test are on the same ${r.pairing.sharedLegs} legs, those every configuration has a value for (a pair's row in the paired table is on its own shared legs, which can be more). Spend ${perText}.`,
        `dominated: another configuration spends no more and its ${successName} is significantly higher on these legs (the frontier test below, Holm-adjusted over its ${r.frontierTests.length} pairs, p_holm < 0.05). Ahead in point estimate only: not_significantly_beaten_by.`,
      ],
    },
    {
      id: 'frontier_tests', title: `The frontier's tests (${successName}, b - a, on the ${r.pairing.sharedLegs} legs every configuration has a value for)`, percent: ['a_success', 'b_success', 'diff'], pvalues: ['p_value', 'p_holm'],
      columns: ['a', 'b', 'legs', 'a_success', 'b_success', 'diff', 'test', 'p_value', 'p_holm', 'same_legs_as_primary'],
      rows: r.frontierTests.map((t) => ({ ...t, same_legs_as_primary: t.same_legs_as_primary ? 'yes' : 'no' })),
      notes: [...unequal, models, `One Holm family of ${r.frontierTests.length} tests. same_legs_as_primary: yes where the pair's own shared legs are these legs (the test is then the paired table's primary row).`],
    },
  ];
}
