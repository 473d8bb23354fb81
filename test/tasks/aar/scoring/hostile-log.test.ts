import { scoreTrial } from '../../../../tasks/aar/scoring/score.js';
import { call, makeLeg, pageStop, step, toolLog, toolStop } from '../../../helpers/legs.js';

const leg = makeLeg([pageStop('https://en.wikipedia.org/wiki/Danube'), toolStop(step('countries_population', { country: 'Romania' }))], 3);

const nestedArray = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
const nestedObject = (levels: number) => '{"a":'.repeat(levels) + '"x"' + '}'.repeat(levels);
const lineWithArgs = (argsJson: string) => `{"tool":"web_search","args":{"query":${argsJson}},"success":true,"result_preview":"","result_len":0,"ts":1}`;

describe('a tool log an agent tried to make unreadable', () => {
  test.each([3_300, 4_000, 20_000, 200_000])('a line nesting %i levels deep is skipped and counted, the rest is scored', (levels) => {
    const log = toolLog(
      lineWithArgs(nestedArray(levels)),
      lineWithArgs(nestedObject(levels)),
      call('countries_population', { country: 'Romania' }),
    );
    const s = scoreTrial(leg, '3', log);
    expect(s).toMatchObject({ status: 'correct', fa: 1, total_tool_calls: 1, right_tool_calls: 1, rcr: 1, log_lines_skipped: 2 });
  });

  test('nesting Python reads (990 levels) still counts as a call; one more level is skipped as the reference cannot read it', () => {
    const s = scoreTrial(leg, '3', toolLog(lineWithArgs(nestedArray(988)), lineWithArgs(nestedArray(989))));
    expect(s).toMatchObject({ total_tool_calls: 1, log_lines_skipped: 1 });
  });
});
