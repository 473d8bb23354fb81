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
      notes: [...unequal, models, 'Every meaning key of the rerun rule (harness/jobs/growth.ts), the tools\' world, the legs by the content of their leg.json now, the step budgets the trials had and the harness version.'],
    },
    {
      id: 'paired', title: 'Paired differences (b - a) on each pair\'s shared legs, with 95% intervals', percent: ['a_mean', 'b_mean', 'diff', 'lo', 'hi', 'mde_80'], pvalues: ['p_value', 'p_holm'],
      columns: ['a', 'b', 'metric', coarse, fine, 'role', 'n', 'small_n', 'reducer', 'attempts', 'a_mean', 'b_mean', 'diff', 'lo', 'hi', 'interval', 'test', 'p_value', 'p_holm', 'discordant_a', 'discordant_b', 'mde_80'],
      rows: namedSlices(r.paired, [coarse, fine]),
      notes: [
        ...unequal, ...warning, ...pairNotes, models,
        `n counts legs, not trials. Intervals: Newcombe's hybrid score interval where every leg's value is 0 or 1; otherwise the seeded paired bootstrap over legs from ${BOOTSTRAP_MIN_N} legs and Student's t below. Tests: exact McNemar on 0/1 legs; a paired sign-flip test on per-leg means otherwise (exact when they are fractions of the attempts, seeded Monte Carlo for PVR-like values).`,
        `Multiplicity: the primary comparison (${successName} over all shared legs, one per pair) is reported as is; the other ${secondaries} rows (slices, other metrics) form one family, p_holm is Holm-adjusted over it. small_n: fewer than ${SMALL_N} legs.`,
        `mde_80: the smallest true ${successName} difference the primary test detects at 80% power (alpha 0.05) on these legs with the per-leg spread measured${primaries.length ? `, e.g. ${primaries[0].a} vs ${primaries[0].b}: ${mdeText(primaries[0])}` : ''}.`,
      ],
    },
    {
      id: 'effort', title: `Cost and effort per trial (the ${r.pairing.sharedLegs} legs every configuration has a value for)`, percent: [],
      columns: ['label', 'model', 'trials', 'tokens', 'input_tokens', 'output_tokens', 'cost_usd', 'total_cost_usd', 'wall_s', 'agent_hours', 'steps', 'tool_calls'],
      rows: r.effort.map((e, i) => ({ ...e, model: r.configurations[i].model })), notes: [...unequal, ...(stepsNote ? [stepsNote] : [])],
    },
    {
      id: 'frontier', title: `Cost-accuracy frontier (${successName} vs spend per trial, ${r.pairing.sharedLegs} legs every configuration has a value for)`, percent: ['success', 'success_lo', 'success_hi'],
      columns: ['label', 'model', 'axis', 'spend', 'success', 'success_lo', 'success_hi', 'dominated', 'dominated_by', 'not_significantly_beaten_by'],
      rows: r.frontier.map((f, i) => ({
        label: f.label, model: r.configurations[i].model, axis: f.axis, spend: f.spend, success: f.success, success_lo: f.success_lo, success_hi: f.success_hi,
        dominated: f.dominated_by.length ? 'yes' : 'no', dominated_by: f.dominated_by.join(', ') || null, not_significantly_beaten_by: f.not_significantly_beaten_by.join(', ') || null,
      })),
      notes: [...unequal, `dominated: another configuration spends no more per trial and its ${successName} is significantly higher (its pair's primary test, p < 0.05). Ahead in point estimate only: not_significantly_beaten_by. success_lo/hi: 95% interval (Wilson for 0/1 legs).`],
    },
  ];
}
