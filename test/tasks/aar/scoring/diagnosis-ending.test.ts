/**
 * Honest diagnosis: a wrong trial whose run ended early (killed at the timeout, out of steps without an
 * answer, the agent crashed) is reported as such, not as a navigation error its empty tool log would suggest.
 */
import { scoreTrial } from '../../../../tasks/aar/scoring/score.js';
import { fetchPage, makeLeg, pageStop, toolLog, wikiPages } from '../../../helpers/legs.js';

const urls = wikiPages(4);
const leg = makeLeg(urls.map((u) => pageStop(u)), 7);
/** Visits none of the pages: the PVR rule alone would say navigation. */
const score = (answer: string | null, run: Parameters<typeof scoreTrial>[3]) => scoreTrial(leg, answer, toolLog(), run);

describe('diagnosis of a run that ended early', () => {
  test.each([
    ['killed at the timeout, no answer', null, { timedOut: true, exitCode: null }, 'timeout'],
    ['killed at the timeout after a wrong answer', '3', { timedOut: true, exitCode: null }, 'timeout'],
    ['the gateway refused a step over budget, no answer', null, { stepLimitHit: true, exitCode: 0, steps: 10 }, 'step_limit'],
    ['the whole step budget used, no answer', null, { steps: 10, exitCode: 0 }, 'step_limit'],
    ['the agent crashed (exit 2), no answer', null, { exitCode: 2, timedOut: false }, 'agent_error'],
    ['the agent crashed after a wrong answer', '3', { exitCode: 137, timedOut: false }, 'agent_error'],
    ['a clean exit with no answer and steps left', null, { exitCode: 0, steps: 3, timedOut: false }, 'navigation'],
    ['nothing known about the run', '3', {}, 'navigation'],
  ] as const)('%s -> %s', (_, answer, run, diagnosis) => {
    expect(score(answer, run).diagnosis).toBe(diagnosis);
  });

  test('a correct answer is never diagnosed, however the run ended', () => {
    expect(score('7', { timedOut: true }).diagnosis).toBeNull();
    expect(score('7', { exitCode: 1 }).diagnosis).toBeNull();
  });

  test('a step limit only counts without a valid answer: a wrong answer at the limit is judged by its route', () => {
    const s = scoreTrial(leg, '3', toolLog(...urls.map((u) => fetchPage(u))), { steps: 10, stepLimitHit: true, exitCode: 0 });
    expect(s.step_limit_hit).toBe(false);
    expect(s.diagnosis).toBe('computation');
  });
});
