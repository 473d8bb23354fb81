import { createHash } from 'node:crypto';
import path from 'node:path';
import { listTrialDirs } from '../../trial/folder.js';
import { readTrialRecord } from '../../trial/record.js';
import { agentId, type AgentConfig, type JobConfig } from '../config/schema.js';
import { flattenFields, meaningfulSettings, meaningSettings, type JobMeaning as SharedJobMeaning } from '../../trial/job-meaning.js';
import type { TrialPlan } from './plan.js';

/**
 * What a job's trials mean, so a rerun of its folder can tell growth from change. Growth keeps every
 * finished trial valid: more legs (or fewer), more attempts, more agents, another concurrency, retry or
 * engine wait. Change makes old and new trials incomparable: a budget, the timeout, tools, resources, an
 * agent's model, version, flags or options, or a leg's content. The keys and their rule are the trial
 * contract's (trial/job-meaning.ts), the same list `aar compare` checks budgets by.
 */
export type JobMeaning = SharedJobMeaning<AgentConfig>;

export function meaningOf(config: JobConfig): JobMeaning {
  return { settings: meaningSettings(config), agents: Object.fromEntries(config.agents.map((a) => [agentId(a), a])) };
}

/** The short hash job.json has always carried, now of the settings only. */
export function meaningFingerprint(meaning: JobMeaning): string {
  const sorted = Object.fromEntries(Object.entries(meaning.settings).sort(([a], [b]) => (a < b ? -1 : 1)));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 16);
}

const shown = (v: unknown): string => (v === undefined ? '(unset)' : JSON.stringify(v));

/** The keys whose values differ between a folder's meaning and a new config's, as `key: old -> new`. */
export function meaningDifferences(previous: JobMeaning, current: JobMeaning): string[] {
  const out: string[] = [];
  const keys = [...new Set([...Object.keys(previous.settings), ...Object.keys(current.settings)])].sort();
  for (const key of keys) {
    const [a, b] = [previous.settings[key], current.settings[key]];
    if (JSON.stringify(a) !== JSON.stringify(b)) out.push(`${key}: ${shown(a)} -> ${shown(b)}`);
  }
  for (const [id, agent] of Object.entries(current.agents)) {
    const before = previous.agents[id];
    if (!before) continue;
    const fields = flattenFields(agent);
    const old = flattenFields(before);
    for (const key of [...new Set([...Object.keys(old), ...Object.keys(fields)])].sort()) {
      if (JSON.stringify(old[key]) !== JSON.stringify(fields[key])) out.push(`agents[${id}].${key}: ${shown(old[key])} -> ${shown(fields[key])}`);
    }
  }
  return out;
}

/** The meaning recorded in a job.json: its `meaning`, or (older folders) derived from its `config`; keys that do not change meaning (older files kept some) left out. */
export function recordedMeaning(jobFile: { meaning?: JobMeaning; config?: JobConfig }): JobMeaning | undefined {
  if (jobFile.meaning) return { ...jobFile.meaning, settings: meaningfulSettings(jobFile.meaning.settings) };
  return jobFile.config ? meaningOf(jobFile.config) : undefined;
}

/** The folder's meaning after this run: the new settings, and the agents of both. */
export function mergedMeaning(previous: JobMeaning | undefined, current: JobMeaning): JobMeaning {
  return { settings: current.settings, agents: { ...previous?.agents, ...current.agents } };
}

/** Trials of a job already finished, with the sha256 of their leg (an infrastructure error is not finished: it runs again). */
export function finishedTrials(jobDir: string): Map<string, string | null> {
  const done = new Map<string, string | null>();
  for (const dir of listTrialDirs(jobDir)) {
    try {
      const record = readTrialRecord(dir);
      if (record.status !== 'infra_error') done.set(path.basename(dir), record.leg.sha256 ?? null);
    } catch {
      // an unreadable record runs again
    }
  }
  return done;
}

/** Planned trials already finished on a leg whose text has changed since: `trial id: leg id`. */
export function changedLegs(plans: readonly TrialPlan[], done: ReadonlyMap<string, string | null>): string[] {
  const out: string[] = [];
  const shaOf = new Map<string, string>();
  for (const plan of plans) {
    const recorded = done.get(plan.trialId);
    if (!recorded) continue;
    let sha = shaOf.get(plan.task.id);
    if (!sha) shaOf.set(plan.task.id, (sha = createHash('sha256').update(plan.task.source).digest('hex')));
    if (sha !== recorded) out.push(`leg ${plan.task.id} (trial ${plan.trialId})`);
  }
  return out;
}
