import type { LoadedConfig } from '../../config/load.js';
import type { JobConfig } from '../../config/schema.js';
import type { ModelHandler } from '../../gateway/server.js';
import type { JobReporter } from '../reporters.js';

export interface RunJobOptions {
  /** A config file, or `config`: one already loaded (e.g. flags over a file). */
  configPath?: string;
  config?: LoadedConfig;
  /** Progress display: auto, bar, lines, quiet. */
  progress?: string;
  reporter?: JobReporter;
  /** Run even if the job folder holds trials of a different configuration. */
  allowConfigChange?: boolean;
  /** Replay: run legs whose golden calls the store cannot answer (their calls fail); otherwise refused before any trial. */
  allowMissing?: boolean;
  /** Model traffic handler (the model gateway), given the config and a resolver of paths relative to it. */
  models?: ModelsFactory;
  /** Stops the job as SIGINT does. */
  signal?: AbortSignal;
  /** Delay before an infrastructure retry (default about 2 s, doubling, with jitter). */
  retryDelayMs?: number;
}

export type ModelsFactory = (config: JobConfig, resolve: (p: string) => string) => (ModelHandler & { close?(): Promise<void> }) | undefined;

export interface JobSummary {
  jobDir: string;
  planned: number;
  skipped: number;
  ran: number;
  infraErrors: number;
  interrupted: boolean;
  /** Containers of an earlier, killed run of this job that were removed at start. */
  leftoversRemoved: number;
}
