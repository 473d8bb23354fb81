/**
 * The reference rule for arguments (METRICS.md, `right_tool_calls`) beside the paper's lenient rule (`rcr`),
 * on the same one-step legs: where they agree and where they part.
 *
 * Equivalent mutants of tasks/aar/scoring/args-match.ts that `npm run test:mutation` reports as surviving; no test
 * can kill them, because the line they change only short-cuts what the next lines compute anyway:
 *
 * - valueMatches, `if (gn !== 0 && ...)` -> `if (true && ...)`: with gn = 0 the ratio is |an| / 0, Infinity
 *   or NaN, never < 0.01, and the last line still answers `gn === 0 && an === 0`.
 * - referenceArgsMatch, `if (!step.argsAreDict) return false` -> `if (false)`: golden arguments that are not
 *   a dict leave `step.args` empty, so nothing is compared and `compared > 0` is false all the same.
 * - lenientArgsMatch, `if (step.matchesAnyArgs || !step.argsAreDict) return true` -> `if (false)` and
 *   -> `&&`: in both cases `step.args` is empty, so `compareArgs` gives 0 of 0 and `matched === compared`
 *   is true all the same.
 */
import { scoreTrial } from '../../../../tasks/aar/scoring/score.js';
import { call, makeLeg, step, toolLog, toolStop } from '../../../helpers/legs.js';

const both = (goldenArgs: unknown, agentArgs: unknown, tool = 'maps_geocode') => {
  const s = scoreTrial(makeLeg([toolStop(step('maps_geocode', goldenArgs))]), '3', call(tool, agentArgs));
  return { reference: s.right_tool_calls, paper: s.rcr };
};

test.each([
  ['empty golden arguments', {}, { address: 'x' }, 1, 1],
  ['null golden arguments', null, { address: 'x' }, 1, 1],
  ['golden arguments absent', undefined, {}, 1, 1],
  ['golden arguments not a dict', ['Paris'], { address: 'Paris' }, 0, 1],
  ['golden arguments a string', 'Paris', { address: 'Paris' }, 0, 1],
  ['only "__" golden keys', { __from_previous: 'x' }, { __from_previous: 'x' }, 0, 1],
  ['no golden key given', { address: 'Paris' }, { query: 'Paris' }, 0, 1],
  ['the key given as null', { address: 'Paris' }, { address: null }, 0, 1],
  ['agent args not a dict', { address: 'Paris' }, 'Paris', 0, 1],
  ['agent args null', { address: 'Paris' }, null, 0, 1],
  ['the key matches', { address: 'Paris' }, { address: 'paris' }, 1, 1],
  ['one of two keys given, matching', { address: 'Paris', region: 'FR' }, { address: 'Paris' }, 1, 1],
  ['both keys given, one wrong', { address: 'Paris', region: 'FR' }, { address: 'Paris', region: 'DE' }, 0, 0],
  ['both keys given, first wrong', { address: 'Paris', region: 'FR' }, { address: 'Rome', region: 'fr' }, 0, 0],
  ['the key wrong', { address: 'Paris' }, { address: 'Rome' }, 0, 0],
  ['a "__" golden key beside a matching one', { address: 'Paris', __hint: 'x' }, { address: 'Paris', __hint: 'y' }, 1, 1],
])('%s: reference %p, paper %p', (_, golden, agent, reference, paper) => {
  expect(both(golden, agent)).toEqual({ reference, paper });
});

test('another tool never matches under either rule', () => {
  expect(both({}, {}, 'maps_search_places')).toEqual({ reference: 0, paper: 0 });
});

test('the reference walks the log in order and uses each golden step once', () => {
  const leg = makeLeg([toolStop(step('maps_geocode', { address: 'Paris' }), step('maps_geocode', { address: 'Paris' }))]);
  const one = call('maps_geocode', { address: 'Paris' });
  expect(scoreTrial(leg, '3', toolLog(one)).right_tool_calls).toBe(1);
  expect(scoreTrial(leg, '3', toolLog(one, one)).right_tool_calls).toBe(2);
  expect(scoreTrial(leg, '3', toolLog(one, one, one)).right_tool_calls).toBe(2);
  expect(scoreTrial(leg, '3', toolLog(one)).rcr).toBe(1);
});
