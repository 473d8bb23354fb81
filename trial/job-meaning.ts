/**
 * What a job's trials mean, as job.json records it: the one list the rerun rule (harness/jobs/growth.ts)
 * and compare's equal-budget check (verifier/compare/budgets.ts) both read. It lives with the trial
 * contract because the harness writes it and the verifier reads it: neither imports the other for it.
 */

/** Settings (dotted config keys) every trial of the job shares, and every agent configuration that ran, by id. */
export interface JobMeaning<Agent = Record<string, unknown>> {
  settings: Record<string, unknown>;
  agents: Record<string, Agent>;
}

/** Keys whose change is growth: more legs, attempts or agents, another concurrency, retry or engine wait. `tasks` keeps only its family (legs are checked by content). */
const GROWTH_KEYS = new Set(['name', 'output', 'agents', 'attempts', 'concurrency', 'infra_retries', 'engine_wait_s', 'tasks']);

/**
 * Keys that are recorded but do not change what a finished trial measures: the seed of seeded agents
 * (another seed is another draw of the same agent), how images are built (`images.*`: base, mirrors,
 * certificates; the agent's version is its own setting) and whether model exchanges are kept
 * (`models.record_conversation`). Left out of the meaning, and ignored when an older job.json has them.
 */
const NOT_MEANING = [/^seed$/, /^images(\.|$)/, /^models\.record_conversation$/];

/** Whether a dotted setting key changes what a trial means (false for the keys of NOT_MEANING). */
export const changesMeaning = (key: string): boolean => !NOT_MEANING.some((re) => re.test(key));

function flatten(value: unknown, prefix: string, out: Record<string, unknown>): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else {
    out[prefix] = value;
  }
  return out;
}

/** Nested fields as dotted keys (`resources.cpus`), for listing what differs. */
export const flattenFields = (value: Record<string, unknown>): Record<string, unknown> => flatten(value, '', {});

/** The settings that mean something, of settings recorded by any version (older job.json files kept the keys of NOT_MEANING). */
export function meaningfulSettings(settings: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(settings).filter(([k]) => changesMeaning(k)));
}

/**
 * The meaning keys of a config (dotted, e.g. `resources.cpus`, `models.prices`, `tools.endpoints.maps`)
 * with their values: every setting but the growth keys and the keys that do not change meaning. The config
 * is taken as given (a job.json's `config` is the effective config of its day, defaults filled in).
 */
export function meaningSettings(config: Record<string, unknown>): Record<string, unknown> {
  const kept = Object.fromEntries(Object.entries(config).filter(([k]) => !GROWTH_KEYS.has(k)));
  const settings = meaningfulSettings(flatten(kept, '', {}));
  const tasks = config.tasks as { family?: string } | undefined;
  settings['tasks.family'] = tasks?.family ?? null;
  return settings;
}

/**
 * The meaning settings a job.json records: its `meaning` (written since the rerun rule had one), else, for
 * an older file, derived from its recorded `config` by the rule above: no schema of today is applied, so a
 * config that no longer parses is read as it was written. Keys that do not change meaning are dropped
 * either way. Undefined when the file has neither.
 */
export function recordedSettings(job: { meaning?: { settings?: Record<string, unknown> }; config?: Record<string, unknown> }): { settings: Record<string, unknown>; source: 'recorded' | 'derived' } | undefined {
  if (job.meaning?.settings) return { settings: meaningfulSettings(job.meaning.settings), source: 'recorded' };
  return job.config ? { settings: meaningSettings(job.config), source: 'derived' } : undefined;
}
