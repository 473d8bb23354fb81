import { TrialRecordSchema } from '../../trial/record.js';
import { mergeRunSources, recordedRunOf, runFactsOfRecord, type GatewayCounts, type RunFacts } from '../../trial/run-facts.js';

const counted: GatewayCounts = { turns: 4, budgetExceeded: false, inputTokens: 4000, outputTokens: 200, cachedTokens: 1000, costUsd: 0.02 };
const ending = { exitCode: 0, timedOut: false, wallS: 12.5 };

describe('run facts: one shape from the agent adapters to the score', () => {
  test("the gateway's counts win over the agent's own logs", () => {
    const logs = { steps: 9, inputTokens: 1, outputTokens: 2, cachedTokens: 3, costUsd: 4 };
    expect(mergeRunSources(counted, logs, ending)).toEqual({
      steps: 4, stepLimitHit: null, exitCode: 0, timedOut: false, wallS: 12.5,
      inputTokens: 4000, outputTokens: 200, cachedTokens: 1000, costUsd: 0.02,
    });
  });

  test('a step limit counts when either side reports it', () => {
    expect(mergeRunSources({ ...counted, budgetExceeded: true }, {}, ending).stepLimitHit).toBe(true);
    expect(mergeRunSources(counted, { stepLimitHit: true }, ending).stepLimitHit).toBe(true);
    expect(mergeRunSources(counted, { stepLimitHit: false }, ending).stepLimitHit).toBe(false);
  });

  test('turns that reach the step budget are the step limit, whatever the agent called its stop (issue 35: one source for the fact)', () => {
    // mini-swe-agent stopped at its own step_limit of 3 with another exit status: trial.json said false, the score true.
    const atBudget = { ...ending, stepBudget: 4 };
    expect(mergeRunSources(counted, { stepLimitHit: false }, atBudget).stepLimitHit).toBe(true);
    expect(mergeRunSources(counted, {}, atBudget).stepLimitHit).toBe(true);
    expect(mergeRunSources(counted, {}, { ...ending, stepBudget: 5 }).stepLimitHit).toBe(false);
    expect(mergeRunSources(null, { steps: 10 }, { ...ending, stepBudget: 10 }).stepLimitHit).toBe(true);
    expect(mergeRunSources(null, {}, { ...ending, stepBudget: 10 }).stepLimitHit).toBeNull();
  });

  test("without model traffic the agent's logs are all there is", () => {
    const logs = { steps: 3, stepLimitHit: false, costUsd: 0.5 };
    const expected: RunFacts = {
      steps: 3, stepLimitHit: false, exitCode: 1, timedOut: true, wallS: 30,
      inputTokens: null, outputTokens: null, cachedTokens: null, costUsd: 0.5,
    };
    const end = { exitCode: 1, timedOut: true, wallS: 30 };
    expect(mergeRunSources(null, logs, end)).toEqual(expected);
    expect(mergeRunSources({ ...counted, turns: 0 }, logs, end)).toEqual(expected);
  });

  test("trial.json keeps them under run's snake_case names, in order, and gives them back", () => {
    const facts = mergeRunSources(counted, {}, ending);
    const run = recordedRunOf(facts);
    expect(Object.keys(run)).toEqual(['steps', 'step_limit_hit', 'exit_code', 'input_tokens', 'output_tokens', 'cached_tokens', 'cost_usd']);
    expect(run).toEqual({ steps: 4, step_limit_hit: null, exit_code: 0, input_tokens: 4000, output_tokens: 200, cached_tokens: 1000, cost_usd: 0.02 });

    const record = { status: 'completed' as const, timings: { total_s: 14, agent_s: 12.5, overhead_s: 1.5 }, run };
    expect(runFactsOfRecord(record)).toEqual(facts);
    expect(runFactsOfRecord({ ...record, status: 'timed_out', timings: { total_s: 14, agent_s: null, overhead_s: null } })).toMatchObject({ timedOut: true, wallS: 14 });
  });

  test('an old record without run reads as unknown facts', () => {
    const run = TrialRecordSchema.shape.run.parse(undefined);
    expect(runFactsOfRecord({ status: 'agent_error', timings: { total_s: 2, agent_s: 1, overhead_s: 1 }, run })).toEqual({
      steps: null, stepLimitHit: null, exitCode: null, timedOut: false, wallS: 1,
      inputTokens: null, outputTokens: null, cachedTokens: null, costUsd: null,
    });
  });
});
