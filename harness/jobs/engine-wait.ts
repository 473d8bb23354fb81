import { sleep } from '../../tools/retry.js';
import { InfraError } from './trial/index.js';

/** How often a job asks an engine that went away whether it answers again. */
const POLL_MS = 500;

/** A trial's attempt that failed because the engine went away: not the trial's fault, so it uses no retry. */
export class EngineLost extends InfraError {}

/** The engine did not answer again within the job's wait: the job stopped as on SIGTERM. */
export class EngineGone extends Error {}

const clock = (ms: number): string => new Date(ms).toISOString().slice(11, 19);

/**
 * A job's watch on its engine (the Docker engine, or the swarm manager's). An attempt that failed asks
 * `lost()`; when the engine does not answer, an outage begins (once, for whoever noticed first): trials wait
 * in `ready()` instead of failing one after the other, the engine is asked every 0.5 s, and the outage ends
 * when it answers (trials go on) or after `waitMs` (`onGone` stops the job). A provider that cannot be asked
 * (`answers` absent) has no outages: its failures are plain infrastructure errors.
 */
export class EngineWatch {
  private outage: Promise<boolean> | undefined;

  constructor(
    private readonly answers: (() => Promise<boolean>) | undefined,
    private readonly waitMs: number,
    private readonly signal: AbortSignal,
    private readonly note: (line: string) => void,
    private readonly onGone: (error: EngineGone) => void,
    private readonly engineName = 'the Docker engine',
  ) {}

  /** True when trials may start: no outage, or it ended with the engine back; false when the job stops. */
  async ready(): Promise<boolean> {
    return !this.signal.aborted && (await (this.outage ?? true));
  }

  /** After a failed attempt: true when the engine does not answer (an outage is then under way, or already was). */
  async lost(): Promise<boolean> {
    if (!this.answers) return false;
    if (this.outage) return true;
    if (await this.answers()) return false;
    this.outage ??= this.waitForEngine();
    return true;
  }

  private async waitForEngine(): Promise<boolean> {
    const since = Date.now();
    const waitS = Math.round(this.waitMs / 1000);
    this.note(`${this.engineName} stopped answering at ${clock(since)}: running trials are lost (not scored) and run again once it answers; waiting up to ${waitS} s (engine_wait_s)`);
    while (!this.signal.aborted && Date.now() - since < this.waitMs) {
      await sleep(Math.min(POLL_MS, Math.max(0, since + this.waitMs - Date.now())), this.signal);
      if (this.signal.aborted) break;
      if (await this.answers!()) {
        this.note(`${this.engineName} answers again after ${Math.round((Date.now() - since) / 1000)} s: going on`);
        this.outage = undefined;
        return true;
      }
    }
    if (!this.signal.aborted) {
      this.onGone(new EngineGone(`${this.engineName} stopped answering at ${clock(since)} and did not answer again within ${waitS} s (engine_wait_s)`));
    }
    return false;
  }
}
