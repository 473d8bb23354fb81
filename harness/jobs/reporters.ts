import { SingleBar } from 'cli-progress';
import { colourOn, paint, paintStatus } from './colour.js';
import { formatDuration } from '../../common/duration.js';
import { plural } from '../../common/words.js';
import type { TrialOutcome } from './trial/index.js';

export { formatDuration };

export interface JobStartInfo {
  job: string;
  planned: number;
  skipped: number;
  toRun: number;
  /** The name of the task family's success figure (AAR: FA). */
  successLabel: string;
  /** Agent ids in config order, so the live figure lists them in that order. */
  agents?: string[];
}

/** What a running job tells the person watching it. */
export interface JobReporter {
  start(info: JobStartInfo): void;
  trialStarted(trialId: string): void;
  trialFinished(outcome: TrialOutcome, retried: number): void;
  /** An infrastructure error that will be retried. */
  retrying(trialId: string, attempt: number, error: Error): void;
  note(message: string): void;
  finish(): void;
}

/** Counts of a running job, and the success share per agent (agents in the order they first finish a trial). */
export class Tally {
  done = 0;
  running = 0;
  failed = 0;
  readonly agents = new Map<string, { scored: number; correct: number }>();
  started = Date.now();

  record(outcome: TrialOutcome): void {
    this.done++;
    this.running--;
    if (outcome.record.status === 'infra_error') this.failed++;
    if (outcome.shown) {
      const id = outcome.plan.agentId;
      const agent = this.agents.get(id) ?? { scored: 0, correct: 0 };
      agent.scored++;
      agent.correct += outcome.shown.success;
      this.agents.set(id, agent);
    }
  }

  /** The clock of the ETA starts with the trials, not with the image builds before them. */
  begin(): void {
    this.started = Date.now();
  }

  seed(agents: readonly string[] = []): void {
    for (const id of agents) this.agents.set(id, { scored: 0, correct: 0 });
  }

  /** `-` before any trial is scored; `62.5%` for one agent; `oracle 100.0%, random 12.5%` for several. */
  successRate(): string {
    if (!this.agents.size) return '-';
    const pct = (a: { scored: number; correct: number }): string => (a.scored ? `${((100 * a.correct) / a.scored).toFixed(1)}%` : '-');
    if (this.agents.size === 1) return pct([...this.agents.values()][0]);
    return [...this.agents].map(([id, a]) => `${id} ${pct(a)}`).join(', ');
  }

  /** Time left at the pace so far, with its unit; `unknown` until a trial finishes. */
  eta(total: number): string {
    if (!this.done) return 'unknown';
    return formatDuration(((Date.now() - this.started) / 1000 / this.done) * (total - this.done));
  }
}

/** A progress bar: trials done / running / failed, live FA and ETA (for terminals). */
export class BarReporter implements JobReporter {
  private readonly tally = new Tally();
  private started = false;
  private total = 0;
  private label = '';
  private readonly bar = new SingleBar({
    format: `${paint('{bar}', 'cyan', colourOn(process.stderr))} {value}/{total} trials | {running} running | {failed} infra errors | {label} {rate} | ETA {left}`,
    hideCursor: true,
    clearOnComplete: false,
    barsize: 24,
  });

  start(info: JobStartInfo): void {
    this.total = info.toRun;
    this.label = info.successLabel;
    this.tally.seed(info.agents);
    this.tally.begin();
    this.started = true;
    process.stderr.write(`job ${info.job}: ${plural(info.planned, 'trial')}, ${info.skipped} already done, ${info.toRun} to run\n`);
    this.bar.start(info.toRun, 0, this.payload());
  }
  private payload() {
    return { running: this.tally.running, failed: this.tally.failed, label: this.label, rate: this.tally.successRate(), left: this.tally.eta(this.total) };
  }
  trialStarted(): void {
    this.tally.running++;
    this.bar.update(this.payload());
  }
  trialFinished(outcome: TrialOutcome): void {
    this.tally.record(outcome);
    this.bar.update(this.tally.done, this.payload());
  }
  retrying(): void {}
  note(message: string): void {
    // Before start (image builds), there is no bar to step around yet.
    if (!this.started) return void process.stderr.write(message + '\n');
    this.bar.stop();
    process.stderr.write(message + '\n');
    this.bar.start(this.total, this.tally.done, this.payload());
  }
  finish(): void {
    this.bar.stop();
  }
}

/** How often a line reporter says the job is alive when nothing else was printed (`--progress lines`). */
export const HEARTBEAT_MS = 30_000;

/**
 * One line per finished trial (for logs and CI), and a heartbeat line after every HEARTBEAT_MS without one
 * (trials running, done, elapsed, the last event): a trial of a slow agent may take minutes.
 */
export class LineReporter implements JobReporter {
  private readonly tally = new Tally();
  private total = 0;
  private label = '';
  private readonly heartbeatMs: number;
  private timer: NodeJS.Timeout | undefined;
  private lastLineAt = Date.now();
  private lastEvent: { text: string; at: number } | undefined;

  constructor(options: { heartbeatMs?: number } = {}) {
    this.heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  }

  private write(line: string): void {
    this.lastLineAt = Date.now();
    process.stderr.write(line + '\n');
  }
  private event(text: string): void {
    this.lastEvent = { text, at: Date.now() };
  }
  private heartbeat(): void {
    const now = Date.now();
    if (now - this.lastLineAt < this.heartbeatMs) return;
    const last = this.lastEvent ? `; last: ${this.lastEvent.text} ${formatDuration((now - this.lastEvent.at) / 1000)} ago` : '';
    this.write(`... ${plural(this.tally.running, 'trial')} running, ${this.tally.done}/${this.total} done, ${formatDuration((now - this.tally.started) / 1000)} elapsed${last}`);
  }

  start(info: JobStartInfo): void {
    this.total = info.toRun;
    this.label = info.successLabel;
    this.tally.seed(info.agents);
    this.tally.begin();
    this.write(`job ${info.job}: ${plural(info.planned, 'trial')}, ${info.skipped} already done, ${info.toRun} to run`);
    // Checked a few times per period, so a silence is reported within a fifth of it after it reaches it.
    this.timer = setInterval(() => this.heartbeat(), Math.max(10, this.heartbeatMs / 5));
    this.timer.unref();
  }
  trialStarted(trialId: string): void {
    this.tally.running++;
    this.event(`${trialId} started`);
  }
  trialFinished(outcome: TrialOutcome, retried: number): void {
    this.tally.record(outcome);
    const r = outcome.record;
    this.event(`${r.trial_id} finished`);
    const on = colourOn(process.stderr);
    // Scored: green when it succeeded, red when not (words differ per family); not scored: infra_error's yellow.
    const verdict = outcome.shown ? paint(outcome.shown.verdict, outcome.shown.success ? 'green' : 'red', on) : `not scored: ${r.error}`;
    this.write(
      `[${this.tally.done}/${this.total}] ${r.trial_id}: ${paintStatus(r.status, on)}, ${verdict}, ${r.timings.total_s.toFixed(1)} s` +
        `${retried ? `, after ${retried} infrastructure retries` : ''} | ${this.label} ${this.tally.successRate()} | ETA ${this.tally.eta(this.total)}`,
    );
  }
  retrying(trialId: string, attempt: number, error: Error): void {
    this.event(`${trialId} retried`);
    this.write(`${trialId}: infrastructure error, retry ${attempt}: ${error.message.split('\n')[0]}`);
  }
  note(message: string): void {
    this.write(message);
  }
  finish(): void {
    clearInterval(this.timer);
  }
}

export class QuietReporter implements JobReporter {
  start(): void {}
  trialStarted(): void {}
  trialFinished(): void {}
  retrying(): void {}
  note(): void {}
  finish(): void {}
}

/** Reporters by name (`aar run --progress bar|lines|quiet`); `auto` picks the bar on a terminal. */
export const REPORTERS: Record<string, () => JobReporter> = {
  bar: () => new BarReporter(),
  lines: () => new LineReporter(),
  quiet: () => new QuietReporter(),
};

export function jobReporter(name: string): JobReporter {
  if (name === 'auto') return process.stderr.isTTY ? new BarReporter() : new LineReporter();
  const make = REPORTERS[name];
  if (!make) throw new Error(`unknown progress display '${name}'; known: auto, ${Object.keys(REPORTERS).join(', ')}`);
  return make();
}
