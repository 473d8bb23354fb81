import type { TaskFamily } from '../../../tasks/family.js';
import type { TrialRecord } from '../../../trial/record.js';
import type { JobConfig } from '../../config/schema.js';
import type { EnvironmentProvider, TrialEnvironment } from '../../environments/types.js';
import type { GatewayServer } from '../../gateway/server.js';
import type { TrialPlan } from '../plan.js';

/** A failure of the harness or its infrastructure (not of the agent): retried, reported apart, never scored. */
export class InfraError extends Error {}
/** The job was interrupted while this trial ran: it leaves no folder and runs again on resume. */
export class TrialAborted extends Error {}

/** Everything a trial needs from its job. */
export interface TrialRunContext {
  jobDir: string;
  jobName: string;
  /** Label value naming this job's containers, so a killed run's leftovers can be found. */
  jobKey: string;
  config: JobConfig;
  family: TaskFamily;
  environment: EnvironmentProvider;
  gateway: GatewayServer;
  gatewaySocketDir: string;
  gatewaySocketName: string;
  /** Image tag per agent id. */
  images: Map<string, string>;
  instructionTemplate?: string;
  signal: AbortSignal;
  /** Sandboxes of running trials, so an interrupted job can stop them. */
  running: Set<TrialEnvironment>;
  /** Removes a trial's sandbox in the background: its stop and removal are not the trial's time (the job's end waits for them). */
  retire: (sandbox: TrialEnvironment) => void;
}

export interface TrialOutcome {
  plan: TrialPlan;
  record: TrialRecord;
  score: object | null;
  /** The family's success figure (0..1) and verdict of a scored trial, for progress displays. */
  shown: { success: number; verdict: string } | null;
}

/** The infrastructure errors a trial met before this attempt of it (each was retried). */
export interface InfraRetries {
  count: number;
  /** Each one's first line, oldest first. */
  errors: string[];
}

export const NO_RETRIES: InfraRetries = { count: 0, errors: [] };
