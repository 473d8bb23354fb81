import { scoreTrial } from '../../../../tasks/aar/scoring/score.js';
import { call, fetchPage, makeLeg, pageStop, step, toolLog, toolStop } from '../../../helpers/legs.js';

const leg = makeLeg([
  pageStop('https://en.wikipedia.org/wiki/Danube'),
  toolStop(step('stock_historical_price', { symbol: 'AAPL' })),
  toolStop(step('python_execute_code', { code: 'print(1)' })),
]);

describe('calls the gateway refused', () => {
  test('are counted as calls but never match a golden step, a tool or a page', () => {
    const refused = { refused: true, success: false };
    const log = toolLog(
      call('stock_historical_price', { symbol: 'AAPL' }, refused),
      call('python_execute_code', { code: 'print(1)' }, refused),
      fetchPage('https://en.wikipedia.org/wiki/Danube', refused),
    );
    const s = scoreTrial(leg, null, log);
    expect(s).toMatchObject({ total_tool_calls: 3, tool_calls: 3, right_tool_calls: 0, rcr: 0, pvr: 0, pages_visited: 0, tools_used: 0 });
  });

  test('the same calls, run, are credited', () => {
    const log = toolLog(call('stock_historical_price', { symbol: 'AAPL' }), call('python_execute_code', { code: 'print(1)' }), fetchPage('https://en.wikipedia.org/wiki/Danube'));
    expect(scoreTrial(leg, null, log)).toMatchObject({ right_tool_calls: 2, rcr: 1, pvr: 1, pages_visited: 1, tools_used: 1 });
  });
});
