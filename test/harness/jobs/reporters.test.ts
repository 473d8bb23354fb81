import type { TrialOutcome } from '../../../harness/jobs/trial/index.js';
import { LineReporter } from '../../../harness/jobs/reporters.js';

const outcome = (agentId: string, id: string): TrialOutcome =>
  ({ plan: { agentId }, record: { trial_id: id, status: 'completed', timings: { total_s: 0.1 } }, shown: { success: 1, verdict: 'correct' } }) as unknown as TrialOutcome;

/** The ETA is the trials' pace: the image build before the first trial is not a trial. */
describe('progress ETA', () => {
  test('counts from the start of the trials, not from when the job began building images', async () => {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
    try {
      const reporter = new LineReporter();
      await new Promise((r) => setTimeout(r, 2_500)); // the "image build"
      reporter.start({ job: 'j', planned: 4, skipped: 0, toRun: 4, successLabel: 'FA' });
      reporter.trialStarted('a');
      reporter.trialFinished(outcome('oracle', 'a'), 0);
    } finally {
      process.stderr.write = write;
    }
    expect(written[0]).toBe('job j: 4 trials, 0 already done, 4 to run\n');
    expect(written[1]).toMatch(/^\[1\/4\] a: completed, correct, 0\.1 s \| FA 100\.0% \| ETA 0 s\n$/);
  });
});

/** Issue 35: with `--progress lines` (CI, pipes) nothing was printed until a trial ended. */
describe('progress lines: a heartbeat while trials run', () => {
  test('after a silence of the heartbeat period: trials running, done, elapsed, the last event; nothing while lines come, nothing after finish', async () => {
    const written: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((chunk: string) => written.push(String(chunk)) > 0) as typeof process.stderr.write;
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    try {
      const reporter = new LineReporter({ heartbeatMs: 300 });
      reporter.start({ job: 'j', planned: 2, skipped: 0, toRun: 2, successLabel: 'FA' });
      reporter.trialStarted('oracle__leg__1');
      reporter.trialStarted('oracle__leg2__1');
      await sleep(450);
      const beats = written.slice(1);
      expect(beats).toHaveLength(1);
      expect(beats[0]).toMatch(/^\.\.\. 2 trials running, 0\/2 done, 0 s elapsed; last: oracle__leg2__1 started 0 s ago\n$/);
      reporter.trialFinished(outcome('oracle', 'oracle__leg__1'), 0);
      const before = written.length;
      await sleep(200);
      expect(written.length).toBe(before); // a line was just printed: no heartbeat yet
      await sleep(250);
      expect(written.at(-1)).toMatch(/^\.\.\. 1 trial running, 1\/2 done, \d s elapsed; last: oracle__leg__1 finished 0 s ago\n$/);
      reporter.finish();
      const after = written.length;
      await sleep(500);
      expect(written.length).toBe(after);
    } finally {
      process.stderr.write = write;
    }
  });
});
