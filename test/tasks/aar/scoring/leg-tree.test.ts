import { readFileSync } from 'node:fs';
import { findLegFiles } from '../../../../tasks/aar/load.js';
import { buildLegView } from '../../../../tasks/aar/scoring/leg-view.js';
import { legReadPath, parseLegForScoring, scoredLegOfTree } from '../../../../tasks/aar/scoring/leg-tree.js';
import { parsePyJson } from '../../../../pycompat/index.js';
import type { PyDict } from '../../../../pycompat/dict.js';
import { scoreTrial } from '../../../../tasks/aar/scoring/score.js';
import { AAR_DATA_DIR, describeWithData } from '../../../helpers/data.js';

const leg = (stops: unknown[], passcode = '3') =>
  `{"trail_id": "t", "passcode": ${passcode}, "stops": ${JSON.stringify(stops)}}`;

describe('reading a leg for scoring', () => {
  test('an integral float in a golden argument keeps its Python type', () => {
    const text = leg([]).replace('"stops": []', '"stops": [{"stop_type": "tool", "extracted_value": 1, "bridge": {"tool_chain": [{"tool_name": "t", "arguments": {"year": 2000.0}}]}}]');
    expect(legReadPath(text)).toBe('exact');
    const view = buildLegView(parseLegForScoring(text));
    expect(view.goldenSteps[0].args[0].text).toBe('2000.0');
    // 2000.0 is not a substring of "2000-12-27": the float form matters
    const log = JSON.stringify({ tool: 't', args: { year: '2000-12-27' } });
    expect(scoreTrial(text, null, log).right_tool_calls).toBe(0);
    expect(scoreTrial(text.replace('2000.0', '2000'), null, log).right_tool_calls).toBe(1);
  });

  test('a float passcode is written as Python writes it', () => {
    expect(scoreTrial(leg([], '5.0'), '5', '').expected_answer).toBe('5.0');
    expect(scoreTrial(leg([], '5'), '5', '').expected_answer).toBe('5');
  });

  test('an integer-like key in a golden argument keeps its Python position', () => {
    const args = '{"where": {"b": "x", "10": "y"}}';
    const text = leg([]).replace('"stops": []', `"stops": [{"stop_type": "tool", "extracted_value": 1, "bridge": {"tool_chain": [{"tool_name": "t", "arguments": ${args}}]}}]`);
    expect(legReadPath(text)).toBe('exact');
    expect(buildLegView(parseLegForScoring(text)).goldenSteps[0].args[0].text).toBe("{'b': 'x', '10': 'y'}");
  });

  test('a plain leg takes the native parser', () => {
    expect(legReadPath(leg([{ stop_type: 'page', extracted_value: 20.5 }]))).toBe('native');
  });
});

describeWithData('the released legs', () => {
  test('score the same through the fast path as through the exact parser', async () => {
    const files = await findLegFiles(AAR_DATA_DIR);
    let fast = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      if (legReadPath(text) === 'native') fast++;
      const a = buildLegView(parseLegForScoring(text));
      const b = buildLegView(scoredLegOfTree(parsePyJson(text) as PyDict));
      expect(a).toEqual(b);
    }
    expect(fast).toBe(files.length);
  });
});
