import type { JobConfig } from '../config/schema.js';
import { environmentProvider } from '../environments/registry.js';
import type { EnvironmentProvider, TrialEnvironment } from '../environments/types.js';
import { JOB_LABEL, jobKeyOf } from './labels.js';

/**
 * A job's environment (the config's `environment`, with its settings), from its check to its end: the
 * sandboxes of its running trials, and whatever its label still names when the job ends.
 */
export class JobEnvironment {
  /** Sandboxes of running trials, so a stopped job can kill them. */
  readonly running = new Set<TrialEnvironment>();
  /** Removals under way of sandboxes whose trials are over. */
  private readonly retiring = new Set<Promise<void>>();

  private constructor(
    readonly provider: EnvironmentProvider,
    /** The label value naming this job's sandboxes (jobKeyOf). */
    readonly jobKey: string,
  ) {}

  /** The config's environment for the job in `jobDir`, checked: throws with its one-line hint when it cannot be used here. */
  static async open(config: JobConfig, jobDir: string): Promise<JobEnvironment> {
    const provider = await environmentProvider(config.environment, config);
    await provider.check();
    return new JobEnvironment(provider, jobKeyOf(jobDir));
  }

  /** Removes the sandboxes of an earlier, killed run of this job; returns how many. */
  removeLeftovers(): Promise<number> {
    return this.provider.removeByLabels({ [JOB_LABEL]: this.jobKey });
  }

  /** Kills the running sandboxes at once (a stopped job); close() removes them. */
  killRunning(): void {
    for (const sandbox of this.running) void sandbox.kill().catch(() => {});
  }

  /**
   * Removes the sandbox of a trial that is over, in the background: the engine's stop and removal of its
   * container are not on the trial's path. One that fails is left to close(), which removes every sandbox
   * the job's label still names.
   */
  retire(sandbox: TrialEnvironment): void {
    const removal = sandbox.remove().catch(() => {});
    this.retiring.add(removal);
    void removal.finally(() => this.retiring.delete(removal));
  }

  /** The job's end: its sandboxes removed, and what the provider set up for it released; `note` hears of a failure. */
  async close(note: (line: string) => void): Promise<void> {
    await Promise.all([...this.retiring, ...[...this.running].map((sandbox) => sandbox.remove().catch(() => {}))]);
    // A sandbox whose creation was under way when the job stopped is in no list yet: every sandbox of this
    // job left now is a leftover (the lock says no other run of the job is live).
    await this.removeLeftovers().catch(() => 0);
    await this.provider.close?.().catch((error: Error) => note(`cleanup: ${error.message}`));
  }
}
