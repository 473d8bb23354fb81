import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { TRIAL_FILES, readTrialText } from '../folder.js';
import { fileLines } from '../log-lines.js';
import { TOOL_LOG_READ_MAX_LINE_CHARS } from '../tool-log.js';
import type { TrialRecord } from '../record.js';
import { buildTrajectory, type NotLogged, type TrajectoryInput } from './build.js';
import { ATIF_VERSION, AtifTrajectorySchema, TRAJECTORY_FILE, type AtifTrajectory } from './schema.js';

export * from './schema.js';
export { buildTrajectory, LOG_LINES_READ_MAX, type NotLogged, type TrajectoryInput } from './build.js';

/** The requests a trial record counts without a log line. */
export function notLoggedOf(record: Pick<TrialRecord, 'tool_log_bound' | 'model_log_bound'>): NotLogged {
  return { toolCalls: record.tool_log_bound?.calls_not_logged, modelRequests: record.model_log_bound?.requests_not_logged };
}

/** Who ran the trial, as the trajectory's `agent` names it. */
export type TrajectoryAgent = TrajectoryInput['agent'];

/**
 * The trajectory of a trial folder's logs (model_log.jsonl, tool_log.jsonl, instruction.md). Never throws for
 * what the logs hold: a failure to build (or a result our schema refuses) gives a trajectory of one step
 * that says why, so a malformed log can never turn a trial into an infrastructure error.
 */
export function trajectoryOfFolder(dir: string, trialId: string, agent: TrajectoryAgent, notLogged?: NotLogged): AtifTrajectory {
  try {
    const built = buildTrajectory({
      trialId,
      agent,
      notLogged,
      instruction: readTrialText(dir, TRIAL_FILES.instruction),
      modelLog: fileLines(path.join(dir, TRIAL_FILES.modelLog), TOOL_LOG_READ_MAX_LINE_CHARS),
      toolLog: fileLines(path.join(dir, TRIAL_FILES.toolLog), TOOL_LOG_READ_MAX_LINE_CHARS),
    });
    const checked = AtifTrajectorySchema.safeParse(built);
    if (checked.success) return checked.data;
    const issue = checked.error.issues[0]!;
    return unreadable(trialId, agent, `the trajectory built from the logs broke ATIF at ${issue.path.join('.')}: ${issue.message}`);
  } catch (error) {
    return unreadable(trialId, agent, `the logs could not be read into a trajectory: ${(error as Error).message.slice(0, 500)}`);
  }
}

function unreadable(trialId: string, agent: TrajectoryAgent, why: string): AtifTrajectory {
  return {
    schema_version: ATIF_VERSION,
    session_id: trialId,
    agent: { name: agent.name, version: agent.version, ...(agent.model ? { model_name: agent.model } : {}) },
    steps: [{ step_id: 1, source: 'system', message: `[no trajectory: ${why}]` }],
    notes: why,
    extra: { trial_id: trialId, producer: 'aar-harness', malformed: true },
  };
}

/** Writes trajectory.json into a trial folder (staged or final); returns its size in bytes. */
export function writeTrajectory(dir: string, trialId: string, agent: TrajectoryAgent, notLogged?: NotLogged): number {
  const text = JSON.stringify(trajectoryOfFolder(dir, trialId, agent, notLogged)) + '\n';
  writeFileSync(path.join(dir, TRAJECTORY_FILE), text);
  return Buffer.byteLength(text);
}
