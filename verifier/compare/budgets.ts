import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { usesEveryAttempt, type Reducer } from '../../common/reducers.js';
import { readProvenance, storeFingerprint } from '../../tools/store/provenance.js';
import { TRIAL_FILES } from '../../trial/folder.js';
import type { Configuration } from './select.js';

/** One budget key: its value per configuration label, and whether they are all the same. */
export interface BudgetDifference {
  key: string;
  values: Record<string, string>;
}

/** A checked key; `same` when the values are not simply compared as strings (the legs, job.json). */
type CheckedKey = BudgetDifference & { same?: boolean };

export interface BudgetCheck {
  equal: boolean;
  differences: BudgetDifference[];
  /** Every key checked with its value per configuration (the equal ones too), so a reader sees what "equal" covered. */
  checked: BudgetDifference[];
}

const UNRECORDED = '(not recorded: no job.json)';
/** Config keys naming a file whose content is the meaning: compared by content, wherever the file is. */
const FILE_KEYS = new Set(['instruction_template', 'models.prices']);
/** Keys read another way: the store as the tools' world (by content), below; the family by its own row. */
const OTHER_ROWS = new Set(['tools.store', 'tasks.family']);

const shown = (v: unknown): string => (v === undefined ? 'none' : typeof v === 'string' ? v : JSON.stringify(v));
const sha12 = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex').slice(0, 12);

function resolveFromConfig(c: Configuration, file: string): string {
  return c.job!.configFile ? path.resolve(path.dirname(c.job!.configFile), file) : path.resolve(file);
}

function fileContent(c: Configuration, file: string): string {
  const abs = resolveFromConfig(c, file);
  try {
    return `sha256 ${sha12(readFileSync(abs))} (${path.basename(abs)})`;
  } catch {
    return `${abs} (unreadable: content unknown)`;
  }
}

const storeWorlds = new Map<string, { world: string; provenance: string }>();

/** A store's world (the hash of its entries: tools/store/provenance.ts) and what its provenance says of it. */
function storeWorld(dir: string): { world: string; provenance: string } {
  let known = storeWorlds.get(dir);
  if (known) return known;
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return { world: `store ${dir} (missing: content unknown)`, provenance: 'unknown' };
  const { sha256, entries } = storeFingerprint(dir);
  let provenance = 'none recorded';
  try {
    const { world, sessions } = readProvenance(dir);
    if (world) provenance = `${world.origin}, created ${world.created.slice(0, 10)} by aar-harness ${world.harness_version}, ${sessions.length} recording sessions`;
  } catch (error) {
    provenance = `unreadable: ${(error as Error).message}`;
  }
  known = { world: `store sha256 ${sha256.slice(0, 12)} (${entries} responses)`, provenance };
  storeWorlds.set(dir, known);
  return known;
}

/** The world the tools answered from: a store by its content, or the live services on the days the trials ran. */
function worldOf(c: Configuration, settings: Record<string, unknown>): { world: string; provenance: string } {
  const mode = typeof settings['tools.mode'] === 'string' ? settings['tools.mode'] : 'live';
  const store = settings['tools.store'];
  if (mode === 'live') {
    const days = c.trials.map((t) => t.record.started_at.slice(0, 10)).sort();
    return { world: days.length ? `live, ${days[0]}..${days[days.length - 1]}` : 'live', provenance: 'the services as they were' };
  }
  if (typeof store !== 'string') return { world: `${mode}, no store`, provenance: 'none' };
  const { world, provenance } = storeWorld(resolveFromConfig(c, store));
  return { world: `${mode}, ${world}`, provenance };
}

/**
 * Every meaning key each job recorded (job.json's `meaning`, trial/job-meaning.ts: the rerun rule's list)
 * with its value per configuration. Read as recorded, never re-derived with today's config schema.
 */
function settingRows(configs: readonly Configuration[]): CheckedKey[] {
  const settings = configs.map((c) => c.job?.settings ?? null);
  const keys = [...new Set(settings.flatMap((s) => (s ? Object.keys(s) : [])))].filter((k) => !OTHER_ROWS.has(k)).sort();
  const rows: CheckedKey[] = keys.map((key) => ({
    key,
    values: Object.fromEntries(configs.map((c, i) => {
      const value = settings[i]?.[key];
      return [c.label, !settings[i] ? UNRECORDED : FILE_KEYS.has(key) && typeof value === 'string' ? fileContent(c, value) : shown(value)];
    })),
  }));
  const worlds = configs.map((c) => (c.job ? worldOf(c, c.job.settings) : { world: UNRECORDED, provenance: UNRECORDED }));
  rows.push({ key: 'tools world (store content, or live and its dates)', values: Object.fromEntries(configs.map((c, i) => [c.label, worlds[i].world])) });
  // Where each world came from, shown beside it: the same entries are the same world, whoever recorded them.
  rows.push({ key: 'tools world provenance (shown, not compared)', values: Object.fromEntries(configs.map((c, i) => [c.label, worlds[i].provenance])), same: true });
  return rows;
}

/** The legs of a configuration's trials, each with the sha256 of its leg.json as the folder holds it now. */
function legsOf(c: Configuration): { legs: Map<string, string>; edited: string[] } {
  const legs = new Map<string, string>();
  const edited: string[] = [];
  for (const t of c.trials) {
    let sha: string;
    try {
      sha = createHash('sha256').update(readFileSync(path.join(t.dir, TRIAL_FILES.leg))).digest('hex');
    } catch {
      sha = '(leg.json missing)';
    }
    if (sha !== t.record.leg.sha256) edited.push(path.basename(t.dir));
    legs.set(t.record.leg.id, sha);
  }
  return { legs, edited };
}

function legRows(configs: readonly Configuration[]): CheckedKey[] {
  const read = configs.map(legsOf);
  const legs = read.map((r) => r.legs);
  const all = new Set(legs.flatMap((m) => [...m.keys()]));
  const conflicts = [...all].filter((id) => new Set(legs.map((m) => m.get(id)).filter((s) => s !== undefined)).size > 1).sort();
  const perConfig = (f: (i: number) => string): Record<string, string> => Object.fromEntries(configs.map((c, i) => [c.label, f(i)]));
  const missing = legs.map((m) => [...all].filter((id) => !m.has(id)).sort());
  const shared = [...all].filter((id) => legs.every((m) => m.has(id))).length;
  const setValue = (i: number): string => `${legs[i].size} legs, ${shared} shared${missing[i].length ? `, ${missing[i].length} of the others' missing (e.g. ${missing[i][0]})` : ''}`;
  return [
    { key: LEG_SET_KEY, values: perConfig(setValue), same: missing.every((m) => m.length === 0) },
    { key: 'legs (sha256 of leg.json)', values: perConfig((i) => (conflicts.length ? `${conflicts.length} legs of the same id differ in content, e.g. ${conflicts[0]} ${legs[i].get(conflicts[0])?.slice(0, 12) ?? '(absent)'}` : 'same content')), same: !conflicts.length },
    { key: 'leg.json unchanged since the run', values: perConfig((i) => (read[i].edited.length ? `${read[i].edited.length} trials' leg.json differ from trial.json's sha256, e.g. ${read[i].edited[0]}` : 'yes')), same: read.every((r) => !r.edited.length) },
  ];
}

/** Step budgets per leg: the budgets the trials actually had on the same legs. */
function stepBudgetRow(configs: readonly Configuration[]): CheckedKey {
  const perLeg = configs.map((c) => new Map(c.trials.map((t) => [t.record.leg.id, t.record.step_budget])));
  const shared = [...perLeg[0].keys()].filter((id) => perLeg.every((m) => m.has(id)));
  const differing = shared.filter((id) => new Set(perLeg.map((m) => m.get(id))).size > 1);
  const example = differing[0];
  return { key: 'step budget per leg', values: Object.fromEntries(configs.map((c, i) => [c.label, differing.length ? `${differing.length} legs differ, e.g. ${example}: ${perLeg[i].get(example)}` : 'same on every shared leg'])), same: !differing.length };
}

/**
 * Attempts per leg, a budget when the reducer reads every attempt as one draw (pass@k, pass^k: 3 tries at
 * a leg are not 1): the scored attempts each configuration had on the legs every configuration has a value for.
 */
function attemptsRow(configs: readonly Configuration[], reducer: Reducer): CheckedKey {
  const perLeg = configs.map((c) => {
    const counts = new Map<string, number>();
    for (const t of c.trials) if (t.score !== null) counts.set(t.record.leg.id, (counts.get(t.record.leg.id) ?? 0) + 1);
    return counts;
  });
  const shared = [...perLeg[0].keys()].filter((id) => perLeg.every((m) => m.has(id))).sort();
  const differing = shared.filter((id) => new Set(perLeg.map((m) => m.get(id))).size > 1);
  const spread = (m: Map<string, number>): string => {
    const counts = shared.map((id) => m.get(id)!);
    if (!counts.length) return 'no shared legs';
    const [lo, hi] = [Math.min(...counts), Math.max(...counts)];
    return lo === hi ? String(lo) : `${lo}-${hi}`;
  };
  return {
    key: `attempts per leg (${reducer} reads every attempt)`,
    values: Object.fromEntries(configs.map((c, i) => [c.label, `${spread(perLeg[i])}${differing.length ? `; ${differing.length} shared legs differ, e.g. ${differing[0]}: ${perLeg[i].get(differing[0])}` : ''}`])),
    same: !differing.length,
  };
}

/**
 * Checks, not assumes, that configurations ran under the same conditions: every meaning key of the rerun
 * rule (budgets, timeouts, resources, network, tools and their endpoints, models' gateway settings and
 * prices, the instruction template, ...), the world the tools answered from, the legs by the content of
 * their leg.json now, the step budgets the trials had, the harness version, and, when the reducer reads
 * every attempt (pass@k, pass^k), the attempts per leg. Every difference is listed.
 */
export function checkBudgets(configs: readonly Configuration[], options: { reducer?: Reducer } = {}): BudgetCheck {
  const reducer = options.reducer ?? 'mean';
  const checked: CheckedKey[] = [];
  // Without job.json the budgets cannot be checked: that is a difference, even when every job lacks one.
  checked.push({ key: 'job.json (the recorded budgets)', values: Object.fromEntries(configs.map((c) => [c.label, c.job ? 'present' : 'missing: budgets unknown'])), same: configs.every((c) => c.job) });
  checked.push({ key: 'task family', values: Object.fromEntries(configs.map((c) => [c.label, c.family])) });
  // Where the settings below come from: never a difference in itself.
  checked.push({ key: 'meaning settings read from', values: Object.fromEntries(configs.map((c) => [c.label, !c.job ? UNRECORDED : c.job.settingsSource === 'recorded' ? "job.json's meaning" : "job.json's config (older file: no meaning recorded)"])), same: true });
  checked.push(...settingRows(configs));
  checked.push({ key: 'harness version', values: Object.fromEntries(configs.map((c) => [c.label, [...new Set(c.trials.map((t) => t.record.harness_version))].sort().join(', ')])) });
  checked.push(...legRows(configs));
  if (configs.length > 1) checked.push(stepBudgetRow(configs));
  if (configs.length > 1 && usesEveryAttempt(reducer)) checked.push(attemptsRow(configs, reducer));
  const differences = checked.filter((d) => !(d.same ?? new Set(Object.values(d.values)).size <= 1)).map(({ key, values }) => ({ key, values }));
  return { equal: differences.length === 0, differences, checked: checked.map(({ key, values }) => ({ key, values })) };
}

/** The checked key that says whether the configurations ran the same legs (not a budget: pairs use the shared ones). */
export const LEG_SET_KEY = 'legs (set)';

export class UnequalBudgetsError extends Error {
  constructor(readonly check: BudgetCheck) {
    const onlyLegs = check.differences.every((d) => d.key === LEG_SET_KEY);
    super(
      (onlyLegs
        ? 'the configurations ran on different legs (their budgets are equal); compare them on the legs both ran with --allow-unequal, which marks every table, or run the missing legs:\n'
        : 'the configurations did not run under equal budgets (compare anyway with --allow-unequal, which marks every table):\n') +
        check.differences.map((d) => `  ${d.key}: ${Object.entries(d.values).map(([label, v]) => `${label} = ${v}`).join('; ')}`).join('\n'),
    );
  }
}

/** The note every table carries when budgets differ and the comparison was forced. */
export function unequalNote(check: BudgetCheck): string {
  return `UNEQUAL BUDGETS (--allow-unequal): ${check.differences.map((d) => d.key).join(', ')} differ; these figures do not compare like with like.`;
}
