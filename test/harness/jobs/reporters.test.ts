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
