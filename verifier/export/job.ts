import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { familyOfRecord } from '../../tasks/registry.js';
import { requireTrialDirs } from '../../trial/folder.js';
import { AtifTrajectorySchema, notLoggedOf, TRAJECTORY_FILE, trajectoryOfFolder, type AtifTrajectory } from '../../trial/trajectory/index.js';
import type { TrialOutcomeText } from '../../tasks/family.js';
import { familyOfResults } from '../aggregate.js';
import { readJobFacts } from '../compare/select.js';
import { readJobResults, type TrialResult } from '../results.js';
import type { ExportJob, ExportTrial } from './types.js';

/**
 * The family's headline figures of one score, exactly as score.json holds them: the figures `aar compare`
 * pairs (AAR: fa, pvr, rcr), else every number and yes/no at the top of the score (WikiRace's success,
 * steps, optimal_length, looped...).
 */
export function headlineMetrics(result: TrialResult): Record<string, number | boolean | null> {
  const score = (result.score ?? {}) as Record<string, unknown>;
  const names = familyOfRecord(result.record).report.compareMetrics?.map((m) => m.name) ?? Object.keys(score).filter((k) => typeof score[k] === 'number' || typeof score[k] === 'boolean');
  const out: Record<string, number | boolean | null> = {};
  for (const name of names) {
    const value = score[name];
    out[name] = typeof value === 'number' || typeof value === 'boolean' ? value : null;
  }
  return out;
}

/**
 * Larger trajectory.json files are not parsed whole (one written from a flooded log before the logs were
 * bounded reaches tens of MB): the trajectory is built again from the logs, which the builder reads bounded.
 */
const TRAJECTORY_READ_MAX_BYTES = 16 * 1024 * 1024;

/** A trial's trajectory.json, or one built from its logs now (folders written before it existed, a damaged or too large file). */
function trajectoryOf(result: TrialResult): AtifTrajectory {
  const file = path.join(result.dir, TRAJECTORY_FILE);
  if (existsSync(file) && statSync(file).size <= TRAJECTORY_READ_MAX_BYTES) {
    try {
      const parsed = AtifTrajectorySchema.safeParse(JSON.parse(readFileSync(file, 'utf8')));
      if (parsed.success) return parsed.data;
    } catch {
      // read again from the logs below
    }
  }
  const agent = result.record.agent;
  return trajectoryOfFolder(result.dir, result.record.trial_id, { name: agent.name, version: agent.version ?? 'unknown', model: agent.model }, notLoggedOf(result.record));
}

/** The trial in words by its family; a family without words gives its headline figures. */
function outcomeOf(result: TrialResult, metrics: Record<string, number | boolean | null>): TrialOutcomeText {
  const family = familyOfRecord(result.record);
  if (family.outcome) return family.outcome(result.score, { dir: result.dir, record: result.record });
  return { question: '', target: '', answer: null, explanation: Object.entries(metrics).map(([name, value]) => `${name}: ${value ?? 'not defined'}`).join('; ') };
}

/** A job folder read for export: every readable trial (infrastructure errors left out: they have no score). */
export function readExportJob(jobDir: string): { job: ExportJob; unreadable: string[]; skipped: number } {
  const { results, unreadable } = readJobResults(requireTrialDirs(jobDir));
  const scored = results.filter((r) => r.score !== null);
  const trials: ExportTrial[] = scored.map((result) => {
    const metrics = headlineMetrics(result);
    return { result, trajectory: trajectoryOf(result), metrics, outcome: outcomeOf(result, metrics) };
  });
  const family = familyOfResults(scored).name;
  return { job: { jobDir, name: path.basename(path.resolve(jobDir)), family, job: readJobFacts(jobDir), trials }, unreadable, skipped: results.length - scored.length };
}
