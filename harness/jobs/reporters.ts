import { SingleBar } from 'cli-progress';
import type { TrialOutcome } from './trial.js';

export interface JobStartInfo {
  job: string;
  planned: number;
  skipped: number;
  toRun: number;
  /** The name of the task family's success figure (AAR: FA). */
  successLabel: string;
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

class Tally {
  done = 0;
  running = 0;
  failed = 0;
  scored = 0;
  correct = 0;
  started = Date.now();

  record(outcome: TrialOutcome): void {
    this.done++;
    this.running--;
    if (outcome.record.status === 'infra_error') this.failed++;
    if (outcome.shown) {
      this.scored++;
      this.correct += outcome.shown.success;
    }
  }

  successRate(): string {
    return this.scored ? `${((100 * this.correct) / this.scored).toFixed(1)}%` : '-';
  }

  eta(total: number): string {
    if (!this.done) return '-';
    const seconds = ((Date.now() - this.started) / 1000 / this.done) * (total - this.done);
    return seconds >= 3600 ? `${(seconds / 3600).toFixed(1)} h` : seconds >= 60 ? `${Math.round(seconds / 60)} min` : `${Math.round(seconds)} s`;
  }
}

/** A progress bar: trials done / running / failed, live FA and ETA (for terminals). */
export class BarReporter implements JobReporter {
  private readonly tally = new Tally();
  private total = 0;
  private label = '';
  private readonly bar = new SingleBar({
    format: '{bar} {value}/{total} trials | {running} running | {failed} infra errors | {label} {rate} | ETA {eta}',
    hideCursor: true,
    clearOnComplete: false,
    barsize: 24,
  });

  start(info: JobStartInfo): void {
    this.total = info.toRun;
    this.label = info.successLabel;
    process.stderr.write(`job ${info.job}: ${info.planned} trials, ${info.skipped} already done, ${info.toRun} to run\n`);
    this.bar.start(info.toRun, 0, this.payload());
  }
  private payload() {
    return { running: this.tally.running, failed: this.tally.failed, label: this.label, rate: this.tally.successRate(), eta: this.tally.eta(this.total) };
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
    this.bar.stop();
    process.stderr.write(message + '\n');
    this.bar.start(this.total, this.tally.done, this.payload());
  }
  finish(): void {
    this.bar.stop();
  }
}

/** One line per finished trial (for logs and CI). */
export class LineReporter implements JobReporter {
  private readonly tally = new Tally();
  private total = 0;
  private label = '';

  start(info: JobStartInfo): void {
    this.total = info.toRun;
    this.label = info.successLabel;
    process.stderr.write(`job ${info.job}: ${info.planned} trials, ${info.skipped} already done, ${info.toRun} to run\n`);
  }
  trialStarted(): void {
    this.tally.running++;
  }
  trialFinished(outcome: TrialOutcome, retried: number): void {
    this.tally.record(outcome);
    const r = outcome.record;
    const verdict = outcome.shown ? outcome.shown.verdict : `not scored: ${r.error}`;
    process.stderr.write(
      `[${this.tally.done}/${this.total}] ${r.trial_id}: ${r.status}, ${verdict}, ${r.timings.total_s.toFixed(1)} s` +
        `${retried ? `, after ${retried} infrastructure retries` : ''} | ${this.label} ${this.tally.successRate()} | ETA ${this.tally.eta(this.total)}\n`,
    );
  }
  retrying(trialId: string, attempt: number, error: Error): void {
    process.stderr.write(`${trialId}: infrastructure error, retry ${attempt}: ${error.message.split('\n')[0]}\n`);
  }
  note(message: string): void {
    process.stderr.write(message + '\n');
  }
  finish(): void {}
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
