import type { TrialOutcomeText } from '../../tasks/family.js';
import type { AtifTrajectory } from '../../trial/trajectory/index.js';
import type { JobFacts } from '../compare/select.js';
import type { TrialResult } from '../results.js';

/** One trial as an exporter gets it: its record and stored score, its trajectory, and the figures to carry. */
export interface ExportTrial {
  result: TrialResult;
  trajectory: AtifTrajectory;
  /** The family's headline figures, by name, exactly as score.json holds them (null: not defined for this trial). */
  metrics: Record<string, number | boolean | null>;
  /** The trial in words: expected answer, the agent's, and why it scored so (the family's `outcome`). */
  outcome: TrialOutcomeText;
}

/** What every exporter is given: the job, its job.json (null for a folder without one), and its trials in folder order. */
export interface ExportJob {
  jobDir: string;
  name: string;
  /** The task family of the job's trials. */
  family: string;
  job: JobFacts | null;
  trials: ExportTrial[];
}

/** A format `aar export` writes: one small module per format, one line in registry.ts. */
export interface Exporter {
  name: string;
  /** What `aar export --help` says of it. */
  description: string;
  /** Writes the job under `outDir` (created); returns the paths written that a user opens first. */
  write(job: ExportJob, outDir: string): string[];
}
