import { jest } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { runJob } from '../../../harness/jobs/job.js';
import { QuietReporter } from '../../../harness/jobs/reporters.js';
import { dockerAvailable } from '../../../common/docker.js';
import { stepBudget } from '../../../tasks/aar/schema.js';
import { loadJobResults } from '../../../verifier/results.js';
import { verifyJob } from '../../../verifier/verify.js';
import { AAR_DATA_DIR, describeWithData, tempDir } from '../../helpers/data.js';
import { writeJobConfig } from '../../helpers/jobs.js';

const HAVE_DOCKER = await dockerAvailable();
const describeDocker = HAVE_DOCKER ? describeWithData : describe.skip;

jest.setTimeout(300_000);

/** A real leg of 22 stops: its protocol budget (auto) is 33 model turns, not 12. */
const LEG = path.join(AAR_DATA_DIR, 'aar-linear', 'extreme', 'sample_004.json');

describeDocker('a job whose budget.steps is not auto', () => {
  const tmp = tempDir('aar-step-budget-');
  afterAll(() => tmp.cleanup());

  test('is scored under the step budget it ran under, and aar verify re-scores it the same', async () => {
    expect(stepBudget(JSON.parse(readFileSync(LEG, 'utf8')))).toBe(33);
    const config = writeJobConfig(tmp.dir, {
      name: 'budget12',
      tasks: { path: LEG },
      agents: [{ name: 'command', id: 'silent', options: { command: 'grep -c "12 steps" /app/instruction.md' } }],
      budget: { steps: 12 },
    });
    // The agent calls no tool: that the example store cannot answer this leg's golden calls does not matter here.
    const summary = await runJob({ configPath: config, reporter: new QuietReporter(), retryDelayMs: 10, allowMissing: true });
    expect(summary).toMatchObject({ planned: 1, ran: 1, infraErrors: 0 });
    const [result] = loadJobResults(summary.jobDir);
    expect(result.record).toMatchObject({ status: 'completed', step_budget: 12 });
    // The agent was told 12 steps (grep found the line)...
    expect(readFileSync(path.join(result.dir, 'agent', 'stdout.log'), 'utf8').trim()).toBe('1');
    // ...and is scored against 12, not the leg's 33.
    const stored = JSON.parse(readFileSync(path.join(result.dir, 'score.json'), 'utf8')) as Record<string, unknown>;
    expect(stored).toMatchObject({ step_budget: 12, step_limit_hit: false });
    const verified = await verifyJob(summary.jobDir, { workers: 1 });
    expect(verified).toMatchObject({ trials: 1, scored: 1, changed: [], tampered: [], failures: [] });
  });
});
